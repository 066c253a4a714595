import { type ChildProcess, spawn } from "node:child_process";
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

/** What every program runs with: no variable of the shell but PATH and HOME, the LLM at `openaiBaseURL`. */
function programEnv(openaiBaseURL: string): Record<string, string> {
  return {
    PATH: process.env["PATH"] ?? "",
    HOME: process.env["HOME"] ?? "",
    OPENAI_BASE_URL: openaiBaseURL,
    OPENAI_API_KEY: "test-key",
    HAYSTACK_TELEMETRY_ENABLED: "False",
    TRACELOOP_TELEMETRY: "false",
    PYTHONDONTWRITEBYTECODE: "1",
  };
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
      ...programEnv(urls.openaiBaseURL),
      OTEL_EXPORTER_OTLP_ENDPOINT: urls.otlpUrl,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf",
      OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: "true",
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

/** A Python service that runs until stopped: its base URL, its output so far, and how to stop it. */
export interface PythonService {
  readonly baseURL: string;
  readonly child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts the service `tests/python/programs/<script> 0` calling the OpenAI-compatible server at
 * `openaiBaseURL`; resolves once it prints `listening on http://127.0.0.1:PORT` (it binds a free
 * port itself), rejects when it exits first or does not within `timeoutMs`.
 */
export async function startPythonService(python: string, script: string, openaiBaseURL: string, timeoutMs = 60_000): Promise<PythonService> {
  const child = spawn(python, [path.join(PROGRAMS, script), "0"], { cwd: PROGRAMS, env: programEnv(openaiBaseURL), stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const stop = (): Promise<void> =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
  const baseURL = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} printed no "listening on" line within ${timeoutMs} ms:\n${output}`)), timeoutMs);
    child.stdout?.on("data", (d: Buffer) => {
      output += d.toString();
      const m = /^listening on (http:\/\/\S+)$/mu.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1] as string);
      }
    });
    child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code} before listening:\n${output}`));
    });
  }).catch(async (err: unknown) => {
    await stop();
    throw err;
  });
  return { baseURL, child, output: () => output, stop };
}
