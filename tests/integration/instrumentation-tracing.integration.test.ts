import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DecodedSpan, decodeProtobufTraces, extractInteraction } from "../helpers/otlp-decode.js";

// startTracing() end to end: the built package in a child process exports over real
// OTLP/HTTP protobuf to a local receiver, honouring OTEL_* variables, and flushes on SIGTERM.

const root = fileURLToPath(new URL("../../", import.meta.url));
const child = fileURLToPath(new URL("../helpers/instrumentation-tracing-child.mjs", import.meta.url));

interface Received {
  path: string;
  contentType: string | undefined;
  spans: DecodedSpan[];
}
let server: Server;
let endpoint: string;
const received: Received[] = [];

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

beforeAll(async () => {
  execFileSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, "-p", `${root}instrumentation`], {
    stdio: "inherit",
  });
  server = createServer((req, res) => {
    void readBody(req).then((body) => {
      received.push({
        path: req.url ?? "",
        contentType: req.headers["content-type"],
        spans: decodeProtobufTraces(body),
      });
      res.writeHead(200, { "content-type": "application/x-protobuf" }).end();
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 120_000);

afterAll(() => {
  server.close();
});

async function runChild(env: Record<string, string>) {
  received.length = 0;
  const proc = spawn(process.execPath, [child], {
    env: {
      PATH: process.env["PATH"] ?? "",
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_BSP_SCHEDULE_DELAY: "60000", // nothing leaves before shutdown
      OTEL_TRACES_SAMPLER: "parentbased_always_on",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  proc.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  proc.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = once(proc, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
  const deadline = Date.now() + 20_000;
  while (!stdout.includes("ready")) {
    if (Date.now() > deadline || proc.exitCode !== null) throw new Error(`child not ready: ${stderr}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  expect(received).toHaveLength(0); // batched, not sent one by one
  proc.kill("SIGTERM");
  const [code, signal] = await exited;
  return { code, signal, stdout, stderr };
}

describe("startTracing", () => {
  it("exports a batch over OTLP/HTTP protobuf on SIGTERM, then lets the signal end the process", async () => {
    const { code, signal, stderr } = await runChild({
      OTEL_SERVICE_NAME: "svc-from-env",
      OTEL_RESOURCE_ATTRIBUTES: "deployment.environment.name=ci,ragmeter.pipeline.version=pv-env",
      OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: "true",
    });
    expect(stderr).toBe("");
    expect(signal).toBe("SIGTERM");
    expect(code).toBeNull();
    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request?.path).toBe("/v1/traces");
    expect(request?.contentType).toBe("application/x-protobuf");
    const spans = request?.spans ?? [];
    expect(spans.map((s) => s.name).sort()).toEqual(["chat extractive", "retrieval kb"]);
    const resource = spans[0]?.resource ?? {};
    expect(resource["service.name"]).toBe("svc-from-env");
    expect(resource["deployment.environment.name"]).toBe("ci");
    // the environment wins over the startTracing option, and the span helpers read it too
    expect(resource["ragmeter.pipeline.version"]).toBe("pv-env");
    expect(extractInteraction(spans)).toEqual({
      traceId: "5b8efff798038103d269b633813fc60c",
      question: "what is the refund window?",
      documents: [{ id: "c1", document_id: "d1", score: 0.9, content: "Refunds within 30 days." }],
      answer: "Refunds within 30 days.",
      goldenId: "g-child",
      runId: "run-child",
      pipelineVersion: "pv-env",
    });
  }, 60_000);

  it("uses the serviceName option only when the environment names no service, and respects the app's own SIGTERM handler", async () => {
    const { code, signal, stdout } = await runChild({ CHILD_OWN_SIGTERM: "1" });
    expect(stdout).toContain("app-handler");
    expect(signal).toBeNull();
    expect(code).toBe(0);
    expect(received).toHaveLength(1);
    const spans = received[0]?.spans ?? [];
    expect(spans[0]?.resource["service.name"]).toBe("fallback-service");
    expect(spans[0]?.resource["ragmeter.pipeline.version"]).toBe("pv-child");
    // capture off by default: ids and scores, no text
    const interaction = extractInteraction(spans);
    expect(interaction.question).toBeUndefined();
    expect(interaction.answer).toBeUndefined();
    expect(interaction.documents).toEqual([{ id: "c1", document_id: "d1", score: 0.9 }]);
  }, 60_000);
});
