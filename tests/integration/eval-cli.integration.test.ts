import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli } from "../helpers/cli.js";
import { FOUR_QUESTION_TABLE, startFixtureTarget } from "../helpers/fixtureTarget.js";

// Four golden questions whose every figure is computed by hand below.
const GOLDEN = [
  {
    id: "g1",
    question: "How many days is the refund window?",
    expected_source: "billing/refunds.md",
    expected_substring: "within 30 days",
    key_facts: ["30 days"],
    tags: ["topic:billing"],
  },
  {
    id: "g2",
    question: "Which port does PostgreSQL listen on?",
    expected_source: "postgres/connecting.md",
    expected_substring: "port 5432",
    key_facts: ["5432"],
    tags: ["topic:postgres", "numeric"],
  },
  { id: "g3", question: "Do you offer GPU servers?", expected_source: null, tags: ["unanswerable"] },
  { id: "g4", question: "What is the price of a snapshot?", expected_source: "backups/snapshots.md", expected_substring: "per GB", tags: ["topic:backups"] },
];
// The four-question replies, except that the refund chunk is retrieved twice (a duplicate in the top k).
const refund = { id: "billing/refunds.md#1", document_id: "billing/refunds.md", text: "Refunds are possible within 30 days of the payment.", score: 9.5 };
const TABLE = {
  ...FOUR_QUESTION_TABLE,
  "How many days is the refund window?": { answer: "Refunds are possible within 30 days.", contexts: [refund, refund] },
};

let dir: string;
let target: Awaited<ReturnType<typeof startFixtureTarget>>;
let goldenFile: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "ragmeter-eval-"));
  goldenFile = path.join(dir, "golden.jsonl");
  await writeFile(goldenFile, GOLDEN.map((g) => JSON.stringify(g)).join("\n"));
  target = await startFixtureTarget(TABLE);
});
afterAll(async () => {
  await target.close();
});

describe("ragmeter eval against an HTTP target (embedded store)", () => {
  it("scores every question, keeps going past a 500, and writes the JSON report", async () => {
    const out = path.join(dir, "run1.json");
    const r = await cli(["eval", "--golden", goldenFile, "--target", target.url, "--pipeline-version", "fx-1", "--k", "1,3", "--json", out, "--home", dir]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    const j = JSON.parse(await readFile(out, "utf8"));
    // recall@1: g1 hit at rank 1, g2 hit at rank 3 (the duplicate of g1's chunk counts once) → 1/2
    expect(j.metrics["recall@1"]).toBe(0.5);
    expect(j.metrics["recall@3"]).toBe(1);
    expect(j.metrics.mrr).toBeCloseTo((1 + 1 / 3) / 2, 12);
    // grounding: g1 claim SUPPORTED (1), g2 "port 5433" vs "port 5432" CONTRADICTED (0); g3 no_claims; g4 target_error
    expect(j.metrics.grounding).toBe(0.5);
    expect(j.counts.grounding).toEqual({ ok: 2, no_claims: 1, target_error: 1 });
    // relevance (heuristic rules v2, stems): g1 {mani, day, refund, window} → refund, day 2/4 ≥ 0.5 → 4;
    // g2 {port, postgresql, listen} → 3/3 → 4; g3 {offer, gpu, server} → 0 of 3 → 0 (unanswerable, so no abstention floor)
    expect(j.metrics.relevance).toBeCloseTo(8 / 3, 12);
    expect(j.metrics.key_facts).toBe(0.5);
    expect(j.metrics.abstention).toBe(1);
    expect(j.counts.questions).toEqual({ ok: 3, target_error: 1 });
    const g2 = j.questions.find((q: { golden_id: string }) => q.golden_id === "g2");
    expect(g2).toMatchObject({
      metrics: {
        "recall@1": { value: 0, status: "ok", hit_rank: 3 },
        "recall@3": { value: 1, status: "ok", hit_rank: 3 },
        mrr: { value: 1 / 3, status: "ok" },
        grounding: { value: 0, status: "ok" },
        relevance: { value: 4, status: "ok" },
        key_facts: { value: 0, status: "ok" },
        abstention: { value: null, status: "not_applicable", reason: "answerable question" },
      },
      abstained: false,
      status: "ok",
    });
    // every metric of the run, by name, and only those
    expect(Object.keys(g2.metrics)).toEqual([
      "recall@1",
      "recall@3",
      "precision@1",
      "precision@3",
      "ndcg@1",
      "ndcg@3",
      "mrr",
      "grounding",
      "grounding_risk",
      "relevance",
      "context_relevance",
      "key_facts",
      "abstention",
    ]);
    const g4 = j.questions.find((q: { golden_id: string }) => q.golden_id === "g4");
    expect(g4).toMatchObject({ status: "target_error", metrics: { grounding: { value: null, status: "target_error" }, "recall@1": { value: null, status: "target_error" } } });
    expect(g4.reason).toMatch(/^HTTP 500/u);
    expect(j.golden_set.sha256).toMatch(/^[0-9a-f]{64}$/u);
    expect(j.previous.run_id).toBeNull();
    // every request carried a traceparent and a baggage naming run, golden id and pipeline version
    for (const h of target.headers) {
      expect(h["traceparent"]).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/u);
      expect(h["baggage"]).toMatch(new RegExp(`ragmeter\\.run\\.id=${j.run_id},ragmeter\\.golden\\.id=g[1-4],ragmeter\\.pipeline\\.version=fx-1`, "u"));
    }
    expect(r.out).toMatch(/^recall@1 +0\.50 +\(n=2\)$/mu);
    expect(r.out).toMatch(/^relevance +2\.7\/4 +\(n=3\)$/mu);
    // a tagged set keeps its by-tag table
    expect(r.out).toContain("\nby tag (value·n)\n  tag ");
    expect(r.out).toMatch(/^ {2}topic:postgres /mu);
  });

  it("--json drills down per question: answer, retrieved items with rank and match, claims with chunk ids, judge reasons and statuses", async () => {
    const home = await mkdtemp(path.join(tmpdir(), "ragmeter-drill-"));
    const out = path.join(home, "drill.json");
    const r = await cli(["eval", "--golden", goldenFile, "--target", target.url, "--pipeline-version", "fx-d", "--k", "1,3", "--json", out, "--home", home]);
    expect(r.code).toBe(0);
    const j = JSON.parse(await readFile(out, "utf8"));
    const by = (id: string) => j.questions.find((q: { golden_id: string }) => q.golden_id === id);
    // g2: ssh.md is the wrong document, connecting.md#1 lacks "port 5432", connecting.md#2 is the hit at rank 3
    expect(by("g2")).toMatchObject({
      question: "Which port does PostgreSQL listen on?",
      answer: "PostgreSQL listens on port 5433.",
      retrieved: [
        { id: "servers/ssh.md#1", document_id: "servers/ssh.md", score: 3, rank: 1, matched: false },
        { id: "postgres/connecting.md#1", document_id: "postgres/connecting.md", score: 2, rank: 2, matched: false },
        { id: "postgres/connecting.md#2", document_id: "postgres/connecting.md", score: 1, rank: 3, matched: true },
      ],
      metrics: {
        "recall@3": { hit_rank: 3 },
        // the claim's content tokens {postgresql, listens, port}: ssh.md#1 (first in rank order) covers 2 of 3 ≥ 0.5
        // and puts 22 next to "port" where the claim says 5433 → CONTRADICTED, resting on that chunk
        grounding: { status: "ok", claims: [{ text: "PostgreSQL listens on port 5433.", verdict: "CONTRADICTED", chunk_ids: ["servers/ssh.md#1"] }] },
        // question tokens {port, postgresql, listen} (Snowball stems: "listens" → "listen"): all 3 in the answer
        relevance: { status: "ok", reason: "3 of 3 question tokens in the answer" },
      },
    });
    // the heuristic judges have no reference-based judge: no reference_facts in this run
    expect(by("g2").metrics.reference_facts).toBeUndefined();
    // each claim carries its support probability
    for (const c of by("g2").metrics.grounding.claims) expect(c.support).toBeGreaterThanOrEqual(0);
    // g1: the duplicate of the first chunk takes no rank; both copies match
    expect(by("g1").retrieved.map((x: { rank: number | null; matched: boolean }) => [x.rank, x.matched])).toEqual([
      [1, true],
      [null, true],
    ]);
    expect(by("g1").metrics.grounding.claims.map((c: { support?: number }) => ({ ...c, support: undefined }))).toEqual([
      { text: "Refunds are possible within 30 days.", verdict: "SUPPORTED", chunk_ids: ["billing/refunds.md#1"], support: undefined },
    ]);
    // g3 is unanswerable: nothing retrieved, nothing to match, no claim, recall not applicable
    expect(by("g3")).toMatchObject({
      retrieved: [],
      metrics: { grounding: { status: "no_claims", claims: [] }, "recall@1": { status: "not_applicable", reason: "unanswerable question" } },
    });
    // g4: the target failed, so every metric's status says so
    expect(by("g4")).toMatchObject({ answer: null, retrieved: [], metrics: { grounding: { status: "target_error" }, relevance: { status: "target_error" } } });
  });

  it("--max-error-rate 0 turns the target error into exit 1; the second run is paired with the first", async () => {
    const out = path.join(dir, "run2.json");
    const r = await cli([
      "eval",
      "--golden",
      goldenFile,
      "--target",
      target.url,
      "--pipeline-version",
      "fx-2",
      "--k",
      "1,3",
      "--json",
      out,
      "--max-error-rate",
      "0",
      "--home",
      dir,
    ]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/error rate 0\.250 \(target_error, trace_timeout or judge_error on 1 of 4 questions\) > --max-error-rate 0/u);
    const j = JSON.parse(await readFile(out, "utf8"));
    expect(j.previous.run_id).not.toBeNull();
    expect(j.previous.deltas.grounding).toEqual({ delta: 0, n: 2 });
    expect(r.out).toMatch(/^grounding +0\.50 +\(was 0\.50, \+0\.00, n=2\)$/mu);
  });

  it("runs --json lists the history newest first; compare and export read it", async () => {
    const runs = await cli(["runs", "--json", "--home", dir]);
    expect(runs.code).toBe(0);
    const list = JSON.parse(runs.out) as { run_id: string; pipeline_version: string; metrics: Record<string, number>; judge: { kind: string } }[];
    expect(list.map((x) => x.pipeline_version)).toEqual(["fx-2", "fx-1"]);
    expect(list[0]?.metrics["recall@1"]).toBe(0.5);
    expect(list[0]?.judge.kind).toBe("heuristic");

    const cmp = await cli(["compare", list[1]!.run_id, list[0]!.run_id, "--fail-on", "grounding<-0.03", "--seed", "5", "--home", dir]);
    expect(cmp.code).toBe(0);
    expect(cmp.out).toMatch(/^grounding +0\.50 +0\.50 +\+0\.00 +\[\+0\.00, \+0\.00\] +2$/mu);
    // g4 failed at the target in both runs: unpaired for that one reason in every metric, one line
    expect(cmp.out).toContain("  A target_error, B target_error, every metric (1): g4\n");
    expect(cmp.out).toMatch(/seed 5/u);

    const bad = await cli(["compare", list[1]!.run_id, list[0]!.run_id, "--fail-on", "grounding>1", "--home", dir]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--fail-on: "grounding>1"/u);

    const csv = await cli(["export", "--csv", "--home", dir]);
    expect(csv.code).toBe(0);
    const lines = csv.out.trim().split("\n");
    expect(lines[0]).toMatch(
      /^started_at,run_id,pipeline_version,golden_set_sha256,golden_set_path,judge_kind,judge_model,judge_prompt_version,recall@1,recall@3,precision@1,precision@3,ndcg@1,ndcg@3,mrr,grounding,grounding_risk,relevance,context_relevance,key_facts,abstention$/u,
    );
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(",fx-2,");
  });

  it("a target that is down: nothing measured → exit 2, the run is stored as failed and never becomes the baseline; a gate on it fails", async () => {
    const down = await cli(["eval", "--golden", goldenFile, "--target", "http://127.0.0.1:9/ask", "--pipeline-version", "fx-down", "--k", "1,3", "--home", dir]);
    expect(down.code).toBe(2);
    expect(down.err).toMatch(/nothing could be measured: all 4 questions failed \(target_error; first: request failed/u);
    const runs = JSON.parse((await cli(["runs", "--json", "--home", dir])).out) as { run_id: string; pipeline_version: string; status: string }[];
    const failed = runs.find((r) => r.pipeline_version === "fx-down")!;
    expect(failed.status).toBe("failed");
    const good = runs.find((r) => r.pipeline_version === "fx-1")!;
    const gate = await cli(["compare", good.run_id, failed.run_id, "--fail-on", "grounding<-0.03", "--home", dir]);
    expect(gate.code).toBe(1);
    expect(gate.out).toMatch(/FAIL grounding: no question scored ok in both runs/u);
    const next = path.join(dir, "run3.json");
    expect((await cli(["eval", "--golden", goldenFile, "--target", target.url, "--pipeline-version", "fx-3", "--k", "1,3", "--json", next, "--home", dir])).code).toBe(0);
    const j = JSON.parse(await readFile(next, "utf8")) as { previous: { run_id: string } };
    expect(j.previous.run_id).not.toBe(failed.run_id);
  });

  it("a store another live process owns: exit 2 naming its PID, before the target is asked anything", async () => {
    // The store opens while the first questions are asked, but its lock is taken before any.
    const home = await mkdtemp(path.join(tmpdir(), "ragmeter-eval-locked-"));
    await writeFile(path.join(home, "store.lock"), `${process.pid}\n`);
    const asked = target.headers.length;
    const r = await cli(["eval", "--golden", goldenFile, "--target", target.url, "--pipeline-version", "locked", "--home", home]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(new RegExp(`^ragmeter: store in use by PID ${process.pid}: `, "u"));
    expect(target.headers.length).toBe(asked);
  });

  it("usage and configuration errors exit 2 with a message naming what to set", async () => {
    expect((await cli(["eval", "--golden", goldenFile, "--home", dir])).code).toBe(2);
    const r = await cli(["eval", "--golden", goldenFile, "--target", target.url, "--pipeline-version", "x", "--home", dir], { OPENAI_BASE_URL: "http://127.0.0.1:9/v1" });
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/RAGMETER_JUDGE_MODEL/u);
    const missing = await cli(["eval", "--golden", path.join(dir, "nope.jsonl"), "--target", target.url, "--pipeline-version", "x", "--home", dir]);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/nope\.jsonl: cannot read golden set/u);
    const empty = path.join(dir, "empty.jsonl");
    await writeFile(empty, "\n");
    const e = await cli(["eval", "--golden", empty, "--target", target.url, "--pipeline-version", "x", "--home", dir]);
    expect(e.code).toBe(2);
    expect(e.err).toMatch(/empty_golden_set/u);
  });
});

// From the unit tier (errors.unit): the replay opens the embedded engine.
describe("errors of real commands (design §14)", () => {
  it("a golden set's bad line (GoldenSetError) and a --from matching nothing in an empty store (NothingToReplayError) exit 2 with their message", async () => {
    const home = await mkdtemp(path.join(tmpdir(), "ragmeter-errors-"));
    const file = path.join(home, "g.jsonl");
    await writeFile(file, '{"id":"b"}\n');
    const golden = await cli(["golden", "check", file]);
    expect(golden.code).toBe(2);
    expect(golden.err).toMatch(new RegExp(`^ragmeter: ${file.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&")}:1: `, "u"));
    const replay = await cli(["replay", "--from", "nonsense", "--target", "http://127.0.0.1:1/ask", "--pipeline-version", "v", "--home", home]);
    expect(replay.code).toBe(2);
    expect(replay.err.split("\n")[0]).toBe("ragmeter: nothing to replay: no scored interaction with a captured question and answer matches --from nonsense");
  });
});
