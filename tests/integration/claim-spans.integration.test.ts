import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ClaimInsert, InteractionInsert } from "../../core/src/domain/rows.js";
import { readCalibrationRows } from "../../store/src/calibration.js";
import { openStore, type Store } from "../../store/src/client.js";
import { countForgettable, forgetTraces } from "../../store/src/forget.js";
import { recentBadClaims } from "../../store/src/report.js";
import { saveResults } from "../../store/src/results.js";
import { freshDatabase } from "../helpers/freshDatabase.js";
import { UNMEASURED_INTERACTION } from "../helpers/interactionRow.js";

let base: Store;
beforeAll(async () => {
  base = await openStore({ kind: "embedded", home: await mkdtemp(path.join(tmpdir(), "ragmeter-claimspans-")), database: "ragmeter" });
});
afterAll(async () => {
  await base?.close();
});

const fresh = (): Promise<Store> => freshDatabase(base);

// Multi-byte text on purpose: Cyrillic (2 bytes), CJK (3 bytes), an emoji outside the BMP (4 bytes, 2 UTF-16 units).
const SENTENCES = ["Refunds take 30 days.", "Возврат — в течение 30 дней.", "退款需要三十天。", "Keep the receipt 🧾 safe.", "Cards never expire."];
const ANSWER = SENTENCES.join(" ");

const interaction = (trace: string, run: string, answer: string): InteractionInsert => ({
  trace_id: trace,
  run_id: run,
  golden_id: `g-${trace}`,
  source: "live",
  service_name: "svc",
  deployment_environment: "",
  pipeline_version: "v1",
  question: "How long do refunds take?",
  answer,
  retrieved: [],
  ...UNMEASURED_INTERACTION,
  judge_prompt_version: "pv1",
});

const claim = (trace: string, run: string, i: number, text: string): ClaimInsert => ({
  run_id: run,
  trace_id: trace,
  golden_id: `g-${trace}`,
  judge_prompt_version: "pv1",
  repeat_index: 0,
  claim_index: i,
  claim: text,
  verdict: "UNSUPPORTED",
  chunk_ids: ["c1"],
  judge_model: "heuristic",
  pipeline_version: "v1",
});

// The answer's sentences, one that is not a slice of it (reworded), a blank one.
const TEXTS = [...SENTENCES, "Refunds take thirty days.", ""];

type Raw = { claim_index: number; claim: string; claim_start: number; claim_length: number; answer_digest: number };
async function raw(store: Store, trace: string): Promise<Raw[]> {
  const rs = await store.client.query({
    query: `SELECT claim_index, claim, claim_start, claim_length, answer_digest FROM ${store.database}.claims FINAL WHERE trace_id = {t:String} ORDER BY claim_index`,
    query_params: { t: trace },
    format: "JSONEachRow",
  });
  return rs.json<Raw>();
}

describe("claims stored as offsets into their answer (migration 16, design §6)", () => {
  it("store a slice of the answer as its UTF-8 byte offset and length, any other claim as its text; every reader returns the texts whole", async () => {
    const store = await fresh();
    await saveResults(store, { interactions: [interaction("t1", "run-a", ANSWER)], scores: [], claims: TEXTS.map((t, i) => claim("t1", "run-a", i, t)) });
    const stored = await raw(store, "t1");
    // The sentences: no text, a slice of the answer's bytes.
    for (const [i, s] of SENTENCES.entries()) {
      const r = stored[i] as Raw;
      expect(r.claim, s).toBe("");
      expect(
        Buffer.from(ANSWER, "utf8")
          .subarray(r.claim_start, r.claim_start + r.claim_length)
          .toString("utf8"),
      ).toBe(s);
      expect(r.answer_digest).not.toBe(0);
    }
    // Not a slice, and blank: the text, no offsets.
    expect(stored.slice(SENTENCES.length).map((r) => [r.claim, r.claim_length])).toEqual([
      ["Refunds take thirty days.", 0],
      ["", 0],
    ]);
    // The report's recent bad claims (most recent first, then claim index).
    const bad = await recentBadClaims(store, ["run-a"], 100);
    expect(bad.map((b) => b.claim)).toEqual(TEXTS);
    expect(bad.every((b) => b.question === "How long do refunds take?")).toBe(true);
    // The calibration file's claims.
    const cal = await readCalibrationRows(store, "run-a");
    expect(cal.claims.map((c) => c.claim)).toEqual(TEXTS);
    expect(cal.claims.map((c) => c.claim_index)).toEqual(TEXTS.map((_, i) => i));
  });

  it("read rows written before (text, no offsets) as they are", async () => {
    const store = await fresh();
    await saveResults(store, { interactions: [interaction("t2", "run-b", ANSWER)], scores: [], claims: [] });
    // As a store written before migration 16 holds them: the text, the new columns at their defaults.
    // One time for all (a clock tick between rows would order them by time, most recent first).
    const at = Date.now();
    await store.client.insert({
      table: `${store.database}.claims`,
      values: SENTENCES.map((s, i) => ({ ...claim("t2", "run-b", i, s), created_at: at, version: 1 })),
      format: "JSONEachRow",
    });
    expect((await raw(store, "t2")).map((r) => [r.claim, r.claim_start, r.claim_length, r.answer_digest])).toEqual(SENTENCES.map((s) => [s, 0, 0, 0]));
    expect((await recentBadClaims(store, ["run-b"], 100)).map((b) => b.claim)).toEqual(SENTENCES);
    expect((await readCalibrationRows(store, "run-b")).claims.map((c) => c.claim)).toEqual(SENTENCES);
  });

  it("a claim whose trace has no interaction in its batch keeps its text; one whose answer was replaced since reads as its blank text, never another answer's bytes", async () => {
    const store = await fresh();
    await saveResults(store, { interactions: [], scores: [], claims: [claim("t3", "run-c", 0, SENTENCES[0] as string)] });
    expect((await raw(store, "t3")).map((r) => [r.claim, r.claim_length])).toEqual([[SENTENCES[0], 0]]);
    await saveResults(store, { interactions: [interaction("t4", "run-c", ANSWER)], scores: [], claims: [claim("t4", "run-c", 0, SENTENCES[1] as string)] });
    // The trace scored again with another answer (a late span), its claims under another prompt version kept.
    await saveResults(store, { interactions: [interaction("t4", "run-c", `Other. ${ANSWER}`)], scores: [], claims: [] });
    expect((await recentBadClaims(store, ["run-c"], 100)).map((b) => [b.trace_id, b.claim]).sort()).toEqual([
      ["t3", SENTENCES[0]],
      ["t4", ""],
    ]);
  });

  it("forget counts and blanks claims stored as offsets", async () => {
    const store = await fresh();
    await saveResults(store, { interactions: [interaction("t5", "run-d", ANSWER)], scores: [], claims: TEXTS.map((t, i) => claim("t5", "run-d", i, t)) });
    // Every claim with a text or offsets: the blank one has neither.
    expect((await countForgettable(store, ["t5"])).claims).toBe(TEXTS.length - 1);
    await forgetTraces(store, ["t5"], { reason: "test", now: Date.now() });
    expect((await raw(store, "t5")).every((r) => r.claim === "" && r.claim_length === 0 && r.answer_digest === 0)).toBe(true);
    expect((await countForgettable(store, ["t5"])).claims).toBe(0);
    expect((await recentBadClaims(store, ["run-d"], 100)).map((b) => b.claim)).toEqual(TEXTS.map(() => ""));
  });
});
