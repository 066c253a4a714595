// The collector as a cluster (--workers / RAGMETER_COLLECTOR_WORKERS): workers share the port, each
// request is acknowledged after Kafka, and SIGTERM closes every worker gracefully.
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeTraceRequest } from "../../otlp/src/codec.js";
import { hex, makeRequest, makeSpan } from "../helpers/collector-fixtures.js";
import { BROKER, consume, createTopic, ensureBroker, post } from "../helpers/collector-kafka-helpers.js";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
let topic: string;
let drop: () => Promise<void>;
let child: ChildProcess | undefined;

function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/u.test(name)) continue;
    try {
      const s = readFileSync(`/proc/${name}/stat`, "utf8");
      if (Number(s.slice(s.lastIndexOf(")") + 2).split(" ")[1]) === pid) out.push(Number(name));
    } catch {
      /* gone */
    }
  }
  return out;
}

beforeAll(async () => {
  await ensureBroker();
  ({ topic, drop } = await createTopic(3));
});

afterAll(async () => {
  if (child && child.exitCode === null) child.kill("SIGKILL");
  await drop();
});

describe("collector cluster", () => {
  it("serves from 2 workers, acknowledges after Kafka, and closes every worker on SIGTERM", async () => {
    const c = spawn(process.execPath, [path.join(root, "collector/dist/main.js"), "--workers", "2", "--port", "0", "--host", "127.0.0.1", "--topic", topic, "--brokers", BROKER], {
      env: { ...process.env, RAGMETER_LOG_LEVEL: "info", RAGMETER_KAFKA_CREATE_TOPICS: "false" },
      stdio: ["ignore", "ignore", "pipe"],
    });
    child = c;
    const lines: Record<string, unknown>[] = [];
    let buf = "";
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no listening line within 30 s: ${buf}`)), 30_000);
      c.stderr!.on("data", (d: Buffer) => {
        buf += d.toString();
        for (let i = buf.indexOf("\n"); i >= 0; i = buf.indexOf("\n")) {
          const line = buf.slice(0, i);
          buf = buf.slice(i + 1);
          try {
            const entry = JSON.parse(line) as Record<string, unknown>;
            lines.push(entry);
            if (entry["msg"] === "collector listening" && entry["workers"] === 2) {
              clearTimeout(timer);
              resolve(String(entry["url"]));
            }
          } catch {
            /* not JSON */
          }
        }
      });
      c.once("exit", (code) => reject(new Error(`collector exited with ${code}: ${buf}`)));
    });
    expect(childrenOf(c.pid!)).toHaveLength(2);

    const traces: string[] = [];
    const statuses = await Promise.all(
      Array.from({ length: 12 }, async () => {
        const t = hex(16);
        traces.push(t);
        const req = makeRequest();
        req.resourceSpans = [req.resourceSpans[0]!];
        req.resourceSpans[0]!.scopeSpans[0]!.spans = [makeSpan(t), makeSpan(t)];
        return (await post(`${url}/v1/traces`, encodeTraceRequest(req), { "content-type": "application/x-protobuf" })).status;
      }),
    );
    expect(statuses).toEqual(new Array(12).fill(200));
    const got = await consume(topic, (m) => m.length >= 12);
    expect(got.map((m) => m.key).sort()).toEqual([...traces].sort());

    const exit = new Promise<number | null>((r) => c.once("close", (code) => r(code))); // after stderr is drained
    c.kill("SIGTERM");
    expect(await exit).toBe(0);
    const closed = lines.filter((l) => l["msg"] === "collector closed");
    expect(closed.filter((l) => l["worker"] !== undefined)).toHaveLength(2);
    const primary = closed.find((l) => l["worker"] === undefined);
    expect(primary?.["acceptedItems"]).toBe(24);
  });
});
