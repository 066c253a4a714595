// TLS on the receiver and the read API (issue 39), through real TLS clients: `ragmeter serve` with
// RAGMETER_TLS_CERT_FILE / RAGMETER_TLS_KEY_FILE serves HTTPS on its OTLP port and on --api-port;
// the official OTLP protobuf exporter, given the CA, delivers a trace; a client without the CA and a
// plain-HTTP client are refused; a renewed certificate is served without a restart, a broken one is
// not; a bad file at start is one line naming its setting (serve, collector, scorer --api-port).
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { request } from "node:http";
import { get as httpsGet } from "node:https";
import { tmpdir } from "node:os";
import path from "node:path";
import { context, trace } from "@opentelemetry/api";
import { ExportResultCode } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const bin = path.join(root, "scorer/bin/ragmeter.js");
const dir = mkdtempSync(path.join(tmpdir(), "ragmeter-tls-"));

/** A CA and a server certificate it signs for 127.0.0.1 and localhost, made with openssl: the files' paths. */
function makePki(name: string): { ca: string; cert: string; key: string } {
  const f = (x: string) => path.join(dir, `${name}-${x}`);
  const ossl = (...args: string[]) => execFileSync("openssl", args, { stdio: ["ignore", "ignore", "pipe"] });
  ossl(
    "req",
    "-x509",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:prime256v1",
    "-nodes",
    "-keyout",
    f("ca.key"),
    "-out",
    f("ca.pem"),
    "-days",
    "2",
    "-subj",
    `/CN=ragmeter test CA ${name}`,
  );
  ossl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", f("key.pem"), "-out", f("csr.pem"), "-subj", "/CN=localhost");
  writeFileSync(f("ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n");
  ossl("x509", "-req", "-in", f("csr.pem"), "-CA", f("ca.pem"), "-CAkey", f("ca.key"), "-CAcreateserial", "-out", f("cert.pem"), "-days", "2", "-extfile", f("ext"));
  return { ca: f("ca.pem"), cert: f("cert.pem"), key: f("key.pem") };
}

let first: ReturnType<typeof makePki>;
let second: ReturnType<typeof makePki>;
/** The files serve reads (copies, replaced to renew). */
const served = { cert: path.join(dir, "served", "cert.pem"), key: path.join(dir, "served", "key.pem") };
let serve: ChildProcess;
let serveHome = "";
let log = "";
let otlp = "";
let api = "";

/** GET with node's https client trusting `caFile` (null: the system's CAs only): the status and body, or the TLS error's code. */
async function fetchTls(url: string, caFile: string | null): Promise<{ status: number; body: string } | string> {
  const ca = caFile === null ? undefined : await readFile(caFile);
  return new Promise((resolve) => {
    const req = httpsGet(url, { ...(ca !== undefined ? { ca } : {}), agent: false, timeout: 5_000 }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => {
        body += d;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
    req.on("timeout", () => req.destroy(new Error("timeout")));
  });
}

/** The status of a GET trusting `caFile`, or the TLS error's code. */
async function get(url: string, caFile: string | null): Promise<number | string> {
  const r = await fetchTls(url, caFile);
  return typeof r === "string" ? r : r.status;
}

/** Plain HTTP to a TLS port: what the client sees (the server hangs up on a request that is not a TLS handshake). */
function plainHttp(url: string): Promise<string> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const req = request({ host: u.hostname, port: u.port, path: "/healthz", timeout: 5_000 }, (res) => resolve(`status ${res.statusCode}`));
    req.on("error", (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.end();
  });
}

/** Polls `check` every 100 ms until it returns true or `ms` pass. */
async function until(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

/** `ragmeter ARGS` (or another entry point) with `env`, to its exit: code and stderr. */
function run(entry: string, args: string[], env: Record<string, string>): { code: number | null; err: string } {
  const r = spawnSync(process.execPath, [entry, ...args], { encoding: "utf8", env: { PATH: process.env["PATH"] ?? "", ...env }, timeout: 60_000 });
  return { code: r.status, err: r.stderr };
}

beforeAll(async () => {
  first = makePki("first");
  second = makePki("second");
  execFileSync("mkdir", ["-p", path.dirname(served.cert)]);
  copyFileSync(first.cert, served.cert);
  copyFileSync(first.key, served.key);
  serveHome = mkdtempSync(path.join(tmpdir(), "ragmeter-tls-home-"));
  serve = spawn(process.execPath, [bin, "serve", "--port", "0", "--api-port", "0", "--quiet-ms", "300", "--home", serveHome], {
    env: { PATH: process.env["PATH"] ?? "", RAGMETER_TLS_CERT_FILE: served.cert, RAGMETER_TLS_KEY_FILE: served.key },
    stdio: ["ignore", "ignore", "pipe"],
  });
  [otlp, api] = await new Promise<[string, string]>((resolve, reject) => {
    serve.stderr?.on("data", (d: Buffer) => {
      log += d.toString();
      const m = /"otlp":"(https:\/\/[^"]+)","api":"(https:\/\/[^"]+)"/u.exec(log);
      if (m) resolve([m[1] as string, m[2] as string]);
    });
    serve.on("exit", (c) => reject(new Error(`serve exited with ${c}: ${log}`)));
  });
}, 60_000);

afterAll(async () => {
  if (serve && serve.exitCode === null) {
    const exited = new Promise((r) => serve.once("exit", r));
    serve.kill("SIGTERM");
    await exited;
  }
});

describe("TLS on the receiver and the read API", () => {
  it("serves HTTPS on the OTLP port and on --api-port; refuses a client without the CA and plain HTTP", async () => {
    expect(otlp).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/u);
    expect(api).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/u);
    expect(api).not.toBe(otlp);
    expect(await get(`${otlp}/healthz`, first.ca)).toBe(200);
    expect(await get(`${api}/api/runs`, first.ca)).toBe(200);
    expect(await get(`${otlp.replace("127.0.0.1", "localhost")}/healthz`, first.ca)).toBe(200);
    // a client that does not trust the CA: certificate verification fails
    expect(await get(`${otlp}/healthz`, null)).toBe("UNABLE_TO_VERIFY_LEAF_SIGNATURE");
    expect(await get(`${api}/api/runs`, second.ca)).toBe("UNABLE_TO_VERIFY_LEAF_SIGNATURE");
    // plain HTTP to the TLS port gets no HTTP answer
    expect(await plainHttp(otlp)).not.toMatch(/^status/u);
    expect(await plainHttp(api)).not.toMatch(/^status/u);
  });

  it("the CLI's read commands reach the owner's API over TLS with NODE_EXTRA_CA_CERTS; without it, one line saying why", () => {
    const trusted = run(bin, ["runs", "--home", serveHome], { NODE_EXTRA_CA_CERTS: first.ca });
    expect(trusted.code, trusted.err).toBe(0);
    const untrusted = run(bin, ["runs", "--home", serveHome], {});
    expect(untrusted.code).toBe(2);
    expect(untrusted.err.trim()).toBe(
      `ragmeter: the store's owner API at ${api} is unreachable: UNABLE_TO_VERIFY_LEAF_SIGNATURE (its TLS certificate is not trusted here: NODE_EXTRA_CA_CERTS=<the CA's PEM file>)`,
    );
  }, 30_000);

  it("the official OTLP protobuf exporter, given the CA, delivers a RAG trace that serve stores", async () => {
    const memory = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ resource: resourceFromAttributes({ "service.name": "tls-svc" }), spanProcessors: [new SimpleSpanProcessor(memory)] });
    const tracer = provider.getTracer("tls-test");
    const rootSpan = tracer.startSpan("rag ask");
    const ctx = trace.setSpan(context.active(), rootSpan);
    tracer
      .startSpan(
        "retrieval kb",
        {
          attributes: {
            "gen_ai.operation.name": "retrieval",
            "gen_ai.retrieval.query.text": "What port does PostgreSQL listen on?",
            "gen_ai.retrieval.documents": JSON.stringify([{ id: "c1", document_id: "d1", content: "PostgreSQL listens on port 5432.", score: 1 }]),
          },
        },
        ctx,
      )
      .end();
    tracer
      .startSpan(
        "chat gen-1",
        {
          attributes: {
            "gen_ai.operation.name": "chat",
            "gen_ai.request.model": "gen-1",
            "gen_ai.output.messages": JSON.stringify([{ role: "assistant", parts: [{ type: "text", content: "Port 5432." }] }]),
          },
        },
        ctx,
      )
      .end();
    rootSpan.end();
    const spans = memory.getFinishedSpans();
    expect(spans).toHaveLength(3);
    const exporter = new OTLPTraceExporter({ url: `${otlp}/v1/traces`, httpAgentOptions: { ca: await readFile(first.ca) } });
    const result = await new Promise<{ code: ExportResultCode; error?: Error }>((r) => exporter.export(spans, r));
    expect(result.error?.message).toBeUndefined();
    expect(result.code).toBe(ExportResultCode.SUCCESS);
    await exporter.shutdown();
    await provider.shutdown();
    // the same exporter without the CA: the export fails on the certificate
    const untrusting = new OTLPTraceExporter({ url: `${otlp}/v1/traces` });
    const refused = await new Promise<{ code: ExportResultCode; error?: Error }>((r) => untrusting.export(spans, r));
    expect(refused.code).toBe(ExportResultCode.FAILED);
    await untrusting.shutdown();
    // stored and scored: the read API (over TLS) sees the trace
    const seen = await until(async () => {
      const r = await fetchTls(`${api}/api/live`, first.ca);
      return typeof r !== "string" && r.status === 200 && (JSON.parse(r.body) as { traces_seen: number }).traces_seen === 1;
    }, 20_000);
    expect(seen).toBe(true);
  }, 40_000);

  it("a renewed certificate is served without a restart on both ports; a broken file is not, the previous one stays", async () => {
    // renew: the second CA's certificate replaces the first (the key first, then the certificate, as a tool writing two files would)
    copyFileSync(second.key, served.key);
    copyFileSync(second.cert, served.cert);
    const renewed = await until(async () => (await get(`${otlp}/healthz`, second.ca)) === 200 && (await get(`${api}/api/runs`, second.ca)) === 200, 10_000);
    expect(renewed, log).toBe(true);
    expect(await get(`${otlp}/healthz`, first.ca)).toBe("UNABLE_TO_VERIFY_LEAF_SIGNATURE");
    expect(await get(`${api}/api/runs`, first.ca)).toBe("UNABLE_TO_VERIFY_LEAF_SIGNATURE");
    expect(log.match(/"msg":"TLS certificate reloaded"/gu)).toHaveLength(2); // the receiver and the read API, once each
    // a broken certificate file: logged naming its setting, the renewed certificate still served
    writeFileSync(served.cert, "not a certificate\n");
    const warned = await until(async () => /TLS certificate not reloaded/u.test(log), 10_000);
    expect(warned).toBe(true);
    const line = log.split("\n").find((l) => l.includes("TLS certificate not reloaded")) as string;
    expect((JSON.parse(line) as { error: string }).error).toBe(`RAGMETER_TLS_CERT_FILE: ${served.cert} is not a PEM certificate (no BEGIN CERTIFICATE block)`);
    expect(await get(`${otlp}/healthz`, second.ca)).toBe(200);
    expect(await get(`${api}/api/runs`, second.ca)).toBe(200);
    copyFileSync(second.cert, served.cert); // restored for nothing else: the next test reads its own files
  }, 30_000);

  it("a bad file at start: one line naming the setting, exit 2 (serve, collector, scorer --api-port)", () => {
    const home = mkdtempSync(path.join(tmpdir(), "ragmeter-tls-bad-"));
    const missing = path.join(dir, "missing.pem");
    const cases: [string, string[], Record<string, string>, string][] = [
      [
        bin,
        ["serve", "--port", "0", "--home", home],
        { RAGMETER_TLS_CERT_FILE: missing, RAGMETER_TLS_KEY_FILE: first.key },
        `ragmeter: invalid collector configuration: RAGMETER_TLS_CERT_FILE: cannot read ${missing}: ENOENT`,
      ],
      [
        bin,
        ["serve", "--port", "0", "--home", home],
        { RAGMETER_TLS_CERT_FILE: first.cert },
        "ragmeter: invalid collector configuration: RAGMETER_TLS_KEY_FILE: required with RAGMETER_TLS_CERT_FILE (a certificate and its key)",
      ],
      [
        path.join(root, "collector/dist/main.js"),
        ["--port", "0"],
        { RAGMETER_TLS_CERT_FILE: first.cert, RAGMETER_TLS_KEY_FILE: second.key },
        `ragmeter collector: invalid collector configuration: RAGMETER_TLS_KEY_FILE: ${second.key} is not the key of the certificate in ${first.cert} (RAGMETER_TLS_CERT_FILE)`,
      ],
      [
        bin,
        ["scorer", "--api-port", "0", "--home", home],
        { RAGMETER_TLS_CERT_FILE: first.key, RAGMETER_TLS_KEY_FILE: first.key },
        `ragmeter: RAGMETER_TLS_CERT_FILE: ${first.key} is not a PEM certificate (no BEGIN CERTIFICATE block)`,
      ],
    ];
    for (const [entry, args, env, line] of cases) {
      const r = run(entry, args, env);
      expect(r.code, r.err).toBe(2);
      expect(r.err.trim()).toBe(line);
    }
  }, 60_000);
});
