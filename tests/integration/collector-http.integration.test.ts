// The collector's HTTP layer (node:http, no framework) against the real broker: what fastify did
// before and the other collector tests do not reach — a chunked body over the limit, a client that
// goes away mid-body (its in-flight bytes are given back), deflate, HEAD and 404, other routes on
// the same port (`deps.routes`, how `ragmeter serve` mounts its read API), query strings, and a
// graceful close with keep-alive connections.
import { Agent, request } from "node:http";
import { deflateSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CollectorConfig, collectorConfigSchema } from "../../collector/src/config.js";
import { type RunningCollector, startCollector } from "../../collector/src/server.js";
import { decodeErrorStatus, decodeExportResponse, encodeTraceRequest } from "../../otlp/src/codec.js";
import { hex, makeRequest } from "../helpers/collector-fixtures.js";
import { BROKER, consume, createTopic, ensureBroker, post } from "../helpers/collector-kafka-helpers.js";

const PB = { "content-type": "application/x-protobuf" };
let topic: string;
let drop: () => Promise<void>;
const running: RunningCollector[] = [];

function config(over: Partial<CollectorConfig> = {}): CollectorConfig {
  return collectorConfigSchema.parse({ host: "127.0.0.1", port: 0, brokers: [BROKER], topic, sendTimeoutMs: 5_000, ...over });
}

async function collector(over: Partial<CollectorConfig> = {}, deps: Parameters<typeof startCollector>[1] = {}): Promise<RunningCollector> {
  const c = await startCollector(config(over), deps);
  running.push(c);
  return c;
}

/** One raw request: the body written in `chunks` (chunked transfer encoding, no content-length). */
function chunked(
  url: string,
  path: string,
  chunks: Buffer[],
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = request({ host: u.hostname, port: u.port, path, method: "POST", headers: { ...headers, "transfer-encoding": "chunked" } }, (res) => {
      const parts: Buffer[] = [];
      res.on("data", (d: Buffer) => parts.push(d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }));
    });
    req.on("error", reject);
    for (const c of chunks) req.write(c);
    req.end();
  });
}

beforeAll(async () => {
  await ensureBroker();
  ({ topic, drop } = await createTopic(3));
});

afterAll(async () => {
  await Promise.all(running.map((c) => c.close()));
  await drop?.();
});

describe("the collector's HTTP layer", () => {
  it("a chunked body (no content-length) is accepted, and 413 once it passes the limit", async () => {
    const c = await collector({ bodyLimitBytes: 8_192 });
    const body = Buffer.from(encodeTraceRequest(makeRequest()));
    expect(body.length).toBeLessThan(8_192);
    const ok = await chunked(c.url, "/v1/traces", [body.subarray(0, 100), body.subarray(100)], PB);
    expect(ok.status).toBe(200);
    expect(decodeExportResponse("traces", ok.body)).toBeUndefined(); // no partialSuccess: all accepted
    const big = await chunked(c.url, "/v1/traces", [Buffer.alloc(5_000, 1), Buffer.alloc(5_000, 1)], PB);
    expect(big.status).toBe(413);
    expect(decodeErrorStatus(big.body).message).toBe("request body is over the limit of 8192 bytes");
    expect(c.stats().inflightBytes).toBe(0);
  });

  it("a client that goes away mid-body gives its in-flight bytes back", async () => {
    const c = await collector();
    const u = new URL(c.url);
    await new Promise<void>((resolve) => {
      const req = request({ host: u.hostname, port: u.port, path: "/v1/traces", method: "POST", headers: { ...PB, "content-length": "100000" } });
      req.on("error", () => resolve());
      req.write(Buffer.alloc(1_000));
      setTimeout(() => {
        expect(c.stats().inflightBytes).toBe(100_000); // reserved from the declared length
        req.destroy();
      }, 200);
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(c.stats().inflightBytes).toBe(0);
    expect((await post(`${c.url}/v1/traces`, encodeTraceRequest(makeRequest()), PB)).status).toBe(200);
  });

  it("deflate bodies and query strings on /v1/traces; one message per trace on the topic", async () => {
    const c = await collector();
    const a = hex(16);
    const b = hex(16);
    const res = await post(`${c.url}/v1/traces?source=test`, deflateSync(encodeTraceRequest(makeRequest(a, b))), { ...PB, "content-encoding": "deflate" });
    expect(res.status).toBe(200);
    const got = await consume(topic, (m) => m.some((x) => x.key === a) && m.some((x) => x.key === b));
    expect(got.filter((m) => m.key === a || m.key === b)).toHaveLength(2);
  });

  it("GET/HEAD /healthz, 404 naming the route elsewhere (also GET /v1/traces)", async () => {
    const c = await collector();
    const health = await fetch(`${c.url}/healthz`);
    expect(health.status).toBe(200);
    expect(health.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await health.json()).toEqual({ status: "ok" });
    const head = await fetch(`${c.url}/healthz`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    const ready = await fetch(`${c.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready" });
    const nope = await fetch(`${c.url}/nope?x=1`);
    expect(nope.status).toBe(404);
    expect(((await nope.json()) as { message: string }).message).toBe("Route GET:/nope not found");
    expect((await fetch(`${c.url}/v1/traces`)).status).toBe(404);
  });

  it("deps.routes answers every other request on the same port; OTLP and health stay the collector's", async () => {
    const seen: string[] = [];
    let closed = 0;
    const c = await collector(
      {},
      {
        routes: {
          handle(req, res) {
            seen.push(`${req.method} ${req.url}`);
            res.writeHead(418, { "content-type": "text/plain" }).end("from the routes");
          },
          async close() {
            closed++;
          },
        },
      },
    );
    const other = await fetch(`${c.url}/api/runs?limit=1`);
    expect(other.status).toBe(418);
    expect(await other.text()).toBe("from the routes");
    expect((await fetch(`${c.url}/v1/traces`)).status).toBe(418); // GET is not OTLP: the routes decide
    expect((await fetch(`${c.url}/healthz`)).status).toBe(200);
    expect((await post(`${c.url}/v1/traces`, encodeTraceRequest(makeRequest()), PB)).status).toBe(200);
    expect(seen).toEqual(["GET /api/runs?limit=1", "GET /v1/traces"]);
    await c.close();
    expect(closed).toBe(1);
  });

  it("close(): an idle kept-alive connection does not hold it up; a request in flight completes (200, Connection: close); then the port is shut", async () => {
    const c = await collector({ shutdownTimeoutMs: 10_000 });
    const u = new URL(c.url);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const body = Buffer.from(encodeTraceRequest(makeRequest()));
    const send = (opts: { agent?: Agent; slow?: boolean }): Promise<{ status: number; connection: string | undefined }> =>
      new Promise((resolve, reject) => {
        const req = request(
          {
            host: u.hostname,
            port: u.port,
            path: "/v1/traces",
            method: "POST",
            ...(opts.agent ? { agent: opts.agent } : {}),
            headers: { ...PB, "content-length": String(body.length) },
          },
          (res) => {
            res.resume();
            res.on("end", () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection as string | undefined }));
          },
        );
        req.on("error", reject);
        if (!opts.slow) return void req.end(body);
        req.write(body.subarray(0, 10));
        setTimeout(() => req.end(body.subarray(10)), 500);
      });
    expect((await send({ agent })).status).toBe(200); // this connection stays open, idle
    const inFlight = send({ slow: true }); // its body is still arriving when close() starts
    await new Promise((r) => setTimeout(r, 150));
    const t0 = Date.now();
    const closing = c.close();
    const done = await inFlight;
    expect(done).toEqual({ status: 200, connection: "close" });
    await closing;
    expect(Date.now() - t0).toBeLessThan(5_000); // not the 10 s shutdown timeout
    await expect(fetch(`${c.url}/healthz`)).rejects.toThrow();
    agent.destroy();
  });
});
