import { spawn } from "node:child_process";
import path from "node:path";
import { z } from "zod";
import { pythonEnv } from "../../scripts/python-env.mjs";

// Runs the Python RAG programs of tests/python/programs with the test environment's interpreter
// (scripts/python-env.mjs creates it when missing). Each program prints one JSON line: what it
// produced, which the tests compare with what ragmeter stored.

const root = path.resolve(import.meta.dirname, "../..");
const PROGRAMS = path.join(root, "tests", "python", "programs");

const Produced = z.object({
  question: z.string(),
  retrieved: z.array(z.object({ id: z.string(), document_id: z.string(), text: z.string(), score: z.number() })),
  answer: z.string(),
  input_tokens: z.number().int().nullable(),
  output_tokens: z.number().int().nullable(),
});
/** What a program produced, as it printed it. */
type Produced = z.infer<typeof Produced>;

/** One program's run: its exit code, its output, and what it produced (null when it printed nothing readable). */
export interface ProgramRun {
  readonly code: number | null;
  readonly output: string;
  readonly produced: Produced | null;
}

/** The test environment's interpreter, created first when missing (minutes on a cold cache). */
export function testPython(): string {
  return pythonEnv({ log: (m) => process.stderr.write(`[python-env] ${m}\n`) }).python;
}

/**
 * Runs `tests/python/programs/<script> ...args` exporting OTLP/HTTP protobuf to `otlpUrl` and calling
 * the OpenAI-compatible server at `openaiBaseURL`.
 */
export async function runProgram(python: string, script: string, args: readonly string[], urls: { otlpUrl: string; openaiBaseURL: string }): Promise<ProgramRun> {
  const child = spawn(python, [path.join(PROGRAMS, script), ...args], {
    cwd: PROGRAMS,
    env: {
      PATH: process.env["PATH"] ?? "",
      HOME: process.env["HOME"] ?? "",
      OTEL_EXPORTER_OTLP_ENDPOINT: urls.otlpUrl,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf",
      OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: "true",
      OPENAI_BASE_URL: urls.openaiBaseURL,
      OPENAI_API_KEY: "test-key",
      HAYSTACK_TELEMETRY_ENABLED: "False",
      TRACELOOP_TELEMETRY: "false",
      PYTHONDONTWRITEBYTECODE: "1",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  const last = stdout.trim().split("\n").at(-1) ?? "";
  let produced: Produced | null = null;
  try {
    produced = Produced.parse(JSON.parse(last));
  } catch {
    produced = null;
  }
  return { code, output: `${stdout}${stderr}`, produced };
}
