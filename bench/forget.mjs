// Cost of the scorer's tombstone check (one `forgotten_traces` lookup per consumed batch) beside
// the batch's span insert, and the time `forget` takes for 1000 traces, on the embedded engine.
// Usage: npm run bench:forget [-- --tombstones N]   (prints one JSON line per measurement)
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "../store/dist/client.js";
import { forgetTraces } from "../store/dist/forget.js";
import { forgottenAmong } from "../store/dist/forgotten.js";
import { saveSpans } from "../store/dist/spans.js";

const arg = process.argv.indexOf("--tombstones");
const tombstones = arg > 0 ? Number(process.argv[arg + 1]) : 10_000;
const home = mkdtempSync(join(tmpdir(), "ragmeter-bench-forget-"));
const store = await openStore({ kind: "embedded", home, database: "ragmeter" });
try {
  const hex = (n) => randomBytes(n).toString("hex");
  const rows = Array.from({ length: tombstones }, () => ({ trace_id: hex(16), forgotten_at: Date.now(), reason: "bench", version: 1 }));
  await store.client.insert({ table: "ragmeter.forgotten_traces", values: rows, format: "JSONEachRow" });
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const span = (t) => ({
    trace_id: t,
    span_id: hex(8),
    parent_span_id: "",
    name: "chat",
    kind: 1,
    start_time_unix_nano: "1",
    end_time_unix_nano: "2",
    status_code: 0,
    scope_name: "",
    service_name: "svc",
    attributes: { "gen_ai.input.messages": "x".repeat(2000) },
    resource_attributes: {},
    events: [],
  });
  const lookup = [];
  const insert = [];
  for (let i = 0; i < 31; i++) {
    const traces = Array.from({ length: 100 }, () => hex(16));
    const spans = traces.flatMap((t) => Array.from({ length: 5 }, () => span(t)));
    let t0 = performance.now();
    await forgottenAmong(store, traces);
    lookup.push(performance.now() - t0);
    t0 = performance.now();
    await saveSpans(store, spans, { partition: 0, offset: "0" }, Date.now());
    insert.push(performance.now() - t0);
  }
  console.log(
    JSON.stringify({
      tombstones,
      batch: "100 traces, 500 spans of 2 KB",
      runs: lookup.length,
      lookup_ms_median: +median(lookup).toFixed(2),
      insert_ms_median: +median(insert).toFixed(2),
      lookup_over_insert: +(median(lookup) / median(insert)).toFixed(3),
      loadavg_1m: +loadavg()[0].toFixed(2),
    }),
  );
  const rs = await store.client.query({ query: "SELECT DISTINCT trace_id FROM ragmeter.spans ORDER BY trace_id LIMIT 1000", format: "JSONEachRow" });
  const ids = (await rs.json()).map((r) => r.trace_id);
  const t0 = performance.now();
  const counts = await forgetTraces(store, ids, { reason: "bench", now: Date.now() });
  console.log(JSON.stringify({ forget: counts, ms: Math.round(performance.now() - t0), loadavg_1m: +loadavg()[0].toFixed(2) }));
} finally {
  await store.close();
  rmSync(home, { recursive: true, force: true });
}
