// A store written by the version before migrations 15-17 (issue 38's bytes per trace) still reads
// whole once they are applied: its spans' chunk references by hash, its claims' texts, its parts in
// the old codecs merged with new ones.
import { randomUUID } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ClaimInsert, InteractionInsert } from "../../core/src/domain/rows.js";
import type { StoredSpan } from "../../core/src/domain/spans.js";
import { readCalibrationRows } from "../../store/src/calibration.js";
import { openStore, type Store } from "../../store/src/client.js";
import { loadMigrations } from "../../store/src/migrationFiles.js";
import { migrate } from "../../store/src/migrations.js";
import { RecentChunks } from "../../store/src/recentChunks.js";
import { recentBadClaims } from "../../store/src/report.js";
import { saveResults } from "../../store/src/results.js";
import { loadTraces } from "../../store/src/spans.js";
import { writeRecords } from "../../stream/src/ingest.js";
import { UNMEASURED_INTERACTION } from "../helpers/interactionRow.js";
import { storedSpan } from "../helpers/storedSpan.js";
import { rows } from "../helpers/streaming.js";

let base: Store;
beforeAll(async () => {
  base = await openStore({ kind: "embedded", home: await mkdtemp(path.join(tmpdir(), "ragmeter-history-")), database: "ragmeter" });
});
afterAll(async () => {
  await base?.close();
});

const T = "4bf92f3577b34da6a3ce929d0e0e4736";
const CHUNKS = [
  "Refunds are possible within 30 days of the payment, on presentation of the receipt at any store.",
  "Gift cards cannot be refunded; they stay valid for three years from the day they were bought. 🎁",
];
const ANSWER = "Refunds take 30 days. Подарочные карты не возвращаются. 退款需要三十天。";
const CLAIMS = ["Refunds take 30 days.", "Подарочные карты не возвращаются.", "退款需要三十天。"];

const span = (id: string, parent: string, start: string, attributes: StoredSpan["attributes"]): StoredSpan => storedSpan(T, "svc-history", id, parent, start, attributes);

const SPANS: StoredSpan[] = [
  span("a000000000000001", "", "1700000000000000000", { "openinference.span.kind": "CHAIN", "input.value": "Can I get my money back?", "output.value": ANSWER }),
  span("a000000000000002", "a000000000000001", "1700000000000000100", {
    "openinference.span.kind": "RETRIEVER",
    "retrieval.documents.0.document.content": CHUNKS[0] as string,
    "retrieval.documents.1.document.content": CHUNKS[1] as string,
    "retrieval.documents.2.document.content": CHUNKS[0] as string,
  }),
];

const interaction: InteractionInsert = {
  trace_id: T,
  run_id: "run-h",
  golden_id: "g1",
  source: "live",
  service_name: "svc-history",
  deployment_environment: "",
  pipeline_version: "v1",
  question: "Can I get my money back?",
  answer: ANSWER,
  retrieved: [],
  ...UNMEASURED_INTERACTION,
  judge_prompt_version: "pv1",
};
const claim = (i: number, text: string, pv: string): ClaimInsert => ({
  run_id: "run-h",
  trace_id: T,
  golden_id: "g1",
  judge_prompt_version: pv,
  repeat_index: 0,
  claim_index: i,
  claim: text,
  verdict: "UNSUPPORTED",
  chunk_ids: [],
  judge_model: "heuristic",
  pipeline_version: "v1",
});

describe("a store of the version before migrations 15-17 reads whole after them (issue 38)", () => {
  it("spans with chunk references by hash, claims with their texts, parts of both codecs merged", async () => {
    const database = `t_${randomUUID().replace(/-/gu, "").slice(0, 12)}`;
    const store: Store = { ...base, database, recentChunks: new RecentChunks() };
    // The schema as the version before left it (migrations 1-14), and its rows as it wrote them.
    await migrate(base.client, database, null, loadMigrations().slice(0, 14));
    await writeRecords(store, [{ spans: SPANS, logs: [] }], { partition: -1, offset: "-1" }, Date.now());
    const written = await rows<Record<string, unknown> & { attributes: string; chunk_hashes: string[]; version: string }>(store, "SELECT * FROM DB.spans FINAL");
    await store.client.insert({
      table: `${database}.spans`,
      values: written.map((r) => ({
        ...r,
        attributes: r.attributes.replace(/ragmeter\.chunk_ref:#(\d+)/gu, (_, i: string) => `ragmeter.chunk_ref:${r.chunk_hashes[Number(i)]}`),
        version: String(BigInt(r.version) + 1n),
      })),
      format: "JSONEachRow",
    });
    await saveResults(store, { interactions: [interaction], scores: [], claims: [] });
    await store.client.insert({
      table: `${database}.claims`,
      values: CLAIMS.map((c, i) => ({ ...claim(i, c, "pv0"), created_at: Date.now() - 1000, version: 1 })),
      format: "JSONEachRow",
    });
    // Then this version: its migrations, its rows beside the old ones (claims of another prompt version), merged.
    await migrate(base.client, database);
    await saveResults(store, { interactions: [interaction], scores: [], claims: CLAIMS.map((c, i) => claim(i, c, "pv1")) });
    for (const t of ["spans", "claims", "interactions", "chunks"]) await base.client.command({ query: `OPTIMIZE TABLE ${database}.${t} FINAL` });
    const stored = await rows<{ pv: string; claim: string; len: number }>(
      store,
      "SELECT judge_prompt_version AS pv, claim, claim_length AS len FROM DB.claims FINAL ORDER BY pv, claim_index",
    );
    expect(stored.map((r) => [r.pv, r.claim === "", r.len > 0])).toEqual([...CLAIMS.map(() => ["pv0", false, false]), ...CLAIMS.map(() => ["pv1", true, true])]);
    expect(JSON.stringify((await loadTraces(store, [T])).get(T)?.spans)).toBe(JSON.stringify(SPANS));
    expect((await recentBadClaims(store, ["run-h"], 100)).map((b) => b.claim).sort()).toEqual([...CLAIMS, ...CLAIMS].sort());
    expect((await readCalibrationRows(store, "run-h")).claims.map((c) => c.claim).sort()).toEqual([...CLAIMS, ...CLAIMS].sort());
  });
});
