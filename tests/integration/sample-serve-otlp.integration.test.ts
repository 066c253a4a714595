import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type DecodedSpan, decodeProtobufTraces } from "../helpers/otlp-decode.js";

const root = path.resolve(import.meta.dirname, "../..");
let receiver: Server | undefined;
afterAll(() => receiver?.close());

async function startReceiver(bodies: Buffer[]): Promise<string> {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.url === "/v1/traces") bodies.push(Buffer.concat(chunks));
      res.writeHead(200, { "content-type": "application/x-protobuf" }).end();
    });
  });
  await new Promise<void>((r) => receiver!.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
}

describe("npm run sample:serve with OTEL_EXPORTER_OTLP_ENDPOINT", () => {
  it("exports a retrieval and a generation span per question over OTLP/HTTP protobuf, carrying the caller's trace and golden id", async () => {
    const bodies: Buffer[] = [];
    const endpoint = await startReceiver(bodies);
    const child = spawn(process.execPath, [path.join(root, "examples/sample-rag/dist/serve.js")], {
      env: { ...process.env, PORT: "0", OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: "true", OTEL_BSP_SCHEDULE_DELAY: "100" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (d: Buffer) => {
        const m = /at (http:\/\/\S+\/ask)/u.exec(d.toString());
        if (m) resolve(m[1] as string);
      });
      child.on("exit", (c) => reject(new Error(`serve exited ${c}`)));
    });
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", traceparent: `00-${traceId}-00f067aa0ba902b7-01`, baggage: "ragmeter.run.id=r-1,ragmeter.golden.id=q042" },
      body: JSON.stringify({ question: "What port does managed PostgreSQL listen on?" }),
    });
    const reply = (await res.json()) as { answer: string; contexts: { id: string; document_id: string }[] };
    expect(reply.contexts.length).toBeGreaterThan(0);
    const exited = new Promise((r) => child.on("exit", r));
    child.kill("SIGTERM");
    await exited;
    const spans: DecodedSpan[] = bodies.flatMap((b) => decodeProtobufTraces(b));
    const retrieval = spans.find((s) => s.attributes["gen_ai.operation.name"] === "retrieval");
    const generation = spans.find((s) => s.attributes["gen_ai.operation.name"] === "chat");
    expect(retrieval?.traceId).toBe(traceId);
    expect(generation?.traceId).toBe(traceId);
    expect(retrieval?.attributes["ragmeter.golden.id"]).toBe("q042");
    expect(retrieval?.attributes["ragmeter.run.id"]).toBe("r-1");
    expect(retrieval?.attributes["ragmeter.pipeline.version"]).toBe("sample-v1");
    const docs = JSON.parse(String(retrieval?.attributes["gen_ai.retrieval.documents"])) as { id: string; document_id?: string }[];
    expect(docs.map((d) => d.id)).toEqual(reply.contexts.map((c) => c.id));
    expect(docs.map((d) => d.document_id ?? d.id)).toEqual(reply.contexts.map((c) => c.document_id));
    const out = JSON.parse(String(generation?.attributes["gen_ai.output.messages"])) as { parts: { content: string }[] }[];
    expect(out[0]?.parts[0]?.content).toBe(reply.answer);
  });
});
