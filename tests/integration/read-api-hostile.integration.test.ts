// The read API's query parameters under hostile input (issue 39): every bad parameter is a 4xx
// naming it, answered at once, and the reader (the store) is never asked with it; a resamples
// count that would hold the thread (the bootstrap costs resamples × questions) is refused.
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Reader } from "../../scorer/src/cli/api/reader.js";
import { startReadApi } from "../../scorer/src/cli/api/server.js";

const asked: string[] = [];
// The reader records what it is asked; its answers are not under test here.
const reader: Reader = {
  location: "test",
  runs: async () => [],
  run: async (id) => (asked.push(`run ${id}`), null),
  questions: async (id) => (asked.push(`questions ${id}`), null),
  compare: async (a, b, o) => (asked.push(`compare ${a} ${b} ${o.seed} ${o.resamples}`), null),
  live: async (q) => (asked.push(`live ${q.windowMs}`), {}) as never,
  report: async () => ({}) as never,
};
let api: { url: string; close(): Promise<void> };

/** One GET with the path sent as is (no client-side URL normalisation). */
function get(path: string): Promise<{ status: number; body: string; ms: number }> {
  const u = new URL(api.url);
  const t = performance.now();
  return new Promise((resolve, reject) => {
    // A connection of its own: the server closes one after a 431.
    const req = request({ host: u.hostname, port: u.port, path, method: "GET", agent: false }, (res) => {
      let body = "";
      res.on("data", (d: Buffer) => (body += d.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, ms: performance.now() - t }));
    });
    req.on("error", reject);
    req.end();
  });
}

beforeAll(async () => {
  api = await startReadApi(reader, { host: "127.0.0.1", port: 0 });
});
afterAll(async () => {
  await api?.close();
});

describe("read API query parameters (a resamples count, duplicates, bad encodings, prototype keys, a 70 kB path)", () => {
  it.each([
    ["/api/compare?a=x&b=y&resamples=1000000", 400, /resamples: at most 10000 through the read API/],
    ["/api/compare?a=x&b=y&resamples=99999999999999999999", 400, /resamples/],
    ["/api/compare?a=1&a=2&b=3", 400, /query parameter a: .*array/],
    ["/api/live?window_ms=-1", 400, /window_ms/],
    ["/api/live?window_ms=%zz", 400, /window_ms/],
    ["/api/live?__proto__=1", 400, /Unrecognized key: .*__proto__/],
    ["/api/live?constructor[prototype]=1", 400, /Unrecognized key/],
    ["/api/runs/%E0%A4%A", 400, /not a valid url component/],
    ["/?window_ms=abc", 400, /window_ms/],
    ["/api/report?golden_set=", 400, /golden_set/],
    [`/api/runs/${"x".repeat(70_000)}`, 431, /header size/i],
  ])("%#: %i naming the fault, at once, the store not asked", async (path, status, message) => {
    asked.length = 0;
    const r = await get(path);
    expect(r.status).toBe(status);
    expect(r.body).toMatch(message);
    expect(r.ms).toBeLessThan(1_000);
    expect(asked).toEqual([]);
  });

  it("the largest resamples the API takes reaches the reader as given", async () => {
    asked.length = 0;
    const r = await get("/api/compare?a=x&b=y&resamples=10000&seed=5");
    expect(r.status).toBe(404);
    expect(asked).toEqual(["compare x y 5 10000"]);
  });
});
