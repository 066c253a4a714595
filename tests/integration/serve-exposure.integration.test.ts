// Closed by default (issue 39), through the real CLI: `ragmeter serve` with no address listens on
// loopback only; on 0.0.0.0 without a token it warns at start and its read API answers 403 with the
// reason on every route while OTLP ingest still accepts; with a token, 401 / 200 as before.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { connect } from "node:net";
import { networkInterfaces, tmpdir } from "node:os";
import path from "node:path";
import { encodeTraceRequestProtobuf } from "@ragmeter/otlp";
import { readApiRefusal } from "@ragmeter/runtime";
import { afterEach, describe, expect, it } from "vitest";
import { ragSpans, traceId, traceRequest } from "../helpers/ragTrace.js";

const root = path.resolve(import.meta.dirname, "../..");
const bin = path.join(root, "scorer/bin/ragmeter.js");
const TOKEN = "exposure-test-token";

/** An address of this machine other than loopback (IPv4 first), or undefined when it has none. */
const nonLoopback = ((): string | undefined => {
  const all = Object.values(networkInterfaces())
    .flat()
    .filter((a) => a !== undefined && !a.internal);
  return all.find((a) => a?.family === "IPv4")?.address ?? all.find((a) => a?.family === "IPv6" && !a.address.startsWith("fe80"))?.address;
})();
const urlOn = (host: string, port: number) => `http://${host.includes(":") ? `[${host}]` : host}:${port}`;

interface Serve {
  child: ChildProcess;
  otlp: string;
  api: string;
  log: () => string;
}
const running: ChildProcess[] = [];

async function serve(args: string[], env: Record<string, string> = {}): Promise<Serve> {
  const home = await mkdtemp(path.join(tmpdir(), "ragmeter-exposure-"));
  const child = spawn(process.execPath, [bin, "serve", "--port", "0", "--quiet-ms", "300", "--home", home, ...args], {
    env: { PATH: process.env["PATH"] ?? "", ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  running.push(child);
  let log = "";
  const [otlp, api] = await new Promise<[string, string]>((resolve, reject) => {
    child.stderr?.on("data", (d: Buffer) => {
      log += d.toString();
      const m = /"otlp":"(http:\/\/[^"]+)","api":"(http:\/\/[^"]+)"/u.exec(log);
      if (m) resolve([m[1] as string, m[2] as string]);
    });
    child.on("exit", (c) => reject(new Error(`serve exited with ${c}: ${log}`)));
  });
  return { child, otlp, api, log: () => log };
}

afterEach(async () => {
  for (const c of running.splice(0)) {
    if (c.exitCode !== null || c.signalCode !== null) continue;
    const exited = new Promise((r) => c.once("exit", r));
    c.kill("SIGTERM");
    await exited;
  }
});

/** The outcome of a TCP connection to host:port: "connected" or the error code. */
function tcp(host: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const s = connect({ host, port });
    s.once("connect", () => {
      s.destroy();
      resolve("connected");
    });
    s.once("error", (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
  });
}

const portOf = (url: string) => Number(new URL(url).port);
const WARNED = "an address reachable from the network, without a token";
const postTrace = (base: string, headers: Record<string, string> = {}) => {
  const t = traceId();
  const { retrieval, generation } = ragSpans({ traceId: t, question: "q?", answer: "a.", docs: [{ id: "c1", document_id: "d1", content: "a.", score: 1 }] });
  return fetch(`${base}/v1/traces`, {
    method: "POST",
    headers: { "content-type": "application/x-protobuf", ...headers },
    body: Buffer.from(encodeTraceRequestProtobuf(traceRequest([retrieval, generation]))),
  });
};

describe("ragmeter serve: closed by default", () => {
  it("with no address it listens on 127.0.0.1 only: a connection to another address of this machine is refused; no warning", async () => {
    const s = await serve([]);
    const port = portOf(s.otlp);
    expect(s.otlp).toBe(`http://127.0.0.1:${port}`);
    expect(await tcp("127.0.0.1", port)).toBe("connected");
    if (nonLoopback !== undefined) expect(await tcp(nonLoopback, port)).toBe("ECONNREFUSED");
    else console.warn("this machine has no address other than loopback: the refused-connection check is skipped");
    // on loopback the read API serves without a token, as before
    const r = await fetch(`${s.otlp}/api/runs`);
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual([]);
    expect(s.log()).not.toContain(WARNED);
  }, 60_000);

  it("on 0.0.0.0 without a token: a warning naming the risk and the setting; the read API answers 403 with the reason on every route, OTLP ingest accepts", async () => {
    const s = await serve(["--host", "0.0.0.0"]);
    const port = portOf(s.otlp);
    const reason = readApiRefusal("0.0.0.0", false);
    expect(reason).toContain("RAGMETER_COLLECTOR_TOKEN");
    const hosts = ["127.0.0.1", ...(nonLoopback !== undefined ? [nonLoopback] : [])];
    for (const host of hosts) {
      for (const route of ["/api/runs", "/api/runs/x", "/api/runs/x/questions", "/api/compare?a=x&b=y", "/api/live", "/api/report", "/"]) {
        const r = await fetch(`${urlOn(host, port)}${route}`, { headers: { authorization: `Bearer ${TOKEN}` } });
        expect(r.status, `${host} ${route}`).toBe(403);
        expect(await r.json()).toEqual({ error: reason });
      }
    }
    expect((await fetch(`${s.otlp}/healthz`)).status).toBe(200);
    const ingest = await postTrace(urlOn(hosts.at(-1) as string, port));
    expect(ingest.status).toBe(200);
    const warnings = s
      .log()
      .split("\n")
      .filter((l) => l.includes('"level":"warn"'))
      .map((l) => (JSON.parse(l) as { msg: string }).msg);
    expect(warnings).toEqual([
      "listening on 0.0.0.0, an address reachable from the network, without a token: anyone who can reach it can send spans and logs to it; set RAGMETER_COLLECTOR_TOKEN (a bearer token clients must send) or listen on 127.0.0.1 (--host or RAGMETER_COLLECTOR_HOST)",
      reason,
    ]);
  }, 60_000);

  it("on 0.0.0.0 without a token, the read API on its own port (--api-port) refuses the same way", async () => {
    const s = await serve(["--host", "0.0.0.0", "--api-port", "0"]);
    expect(s.api).not.toBe(s.otlp);
    const r = await fetch(`${s.api}/api/live`);
    expect(r.status).toBe(403);
    expect(await r.json()).toEqual({ error: readApiRefusal("0.0.0.0", false) });
  }, 60_000);

  it("on 0.0.0.0 with RAGMETER_COLLECTOR_TOKEN: no warning, 401 without the token and 200 with it (same port and --api-port)", async () => {
    for (const args of [[], ["--api-port", "0"]]) {
      const s = await serve(["--host", "0.0.0.0", ...args], { RAGMETER_COLLECTOR_TOKEN: TOKEN });
      const bases = [s.api, ...(nonLoopback !== undefined ? [urlOn(nonLoopback, portOf(s.api))] : [])];
      for (const base of bases) {
        const anonymous = await fetch(`${base}/api/runs`);
        expect(anonymous.status, base).toBe(401);
        const authorized = await fetch(`${base}/api/runs`, { headers: { authorization: `Bearer ${TOKEN}` } });
        expect(authorized.status, base).toBe(200);
        expect(await authorized.json()).toEqual([]);
      }
      expect((await postTrace(s.otlp)).status).toBe(401);
      expect((await postTrace(s.otlp, { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
      expect(s.log()).not.toContain(WARNED);
    }
  }, 90_000);
});
