import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli } from "../helpers/cli.js";
import { startFixtureTarget } from "../helpers/fixtureTarget.js";

// calibrate sample --cases: a review file drawn from a hand-labelled set, judged now by the judge in
// use (heuristic here), human fields from the labels; calibrate score stores it; the next eval's
// summary shows that calibration. The figures are computed by hand below.
const CASES = [
  {
    id: "en-a",
    question: "Which port does PostgreSQL listen on?",
    chunks: [{ id: "c1", text: "PostgreSQL listens on port 5432." }],
    answer: "PostgreSQL listens on port 5432. It was released in 1996.",
    claims: [
      { text: "PostgreSQL listens on port 5432.", label: "SUPPORTED" },
      // the heuristic says UNSUPPORTED (no chunk has it); the label says CONTRADICTED: one disagreement
      { text: "It was released in 1996.", label: "CONTRADICTED" },
    ],
    relevance: { min: 3, max: 4 },
  },
  {
    id: "en-b",
    question: "How long are backups kept?",
    chunks: [{ id: "c1", text: "Backups are kept for 14 days." }],
    answer: "Backups are kept for 14 days.",
    claims: [{ text: "Backups are kept for 14 days.", label: "SUPPORTED" }],
    // the heuristic gives 4 (question stems long, backup, kept; the answer has backup, kept: 2/3 ≥ 0.5 → 4);
    // the range is 0–1 (a label made up for the test) → human 1, a disagreement
    relevance: { min: 0, max: 1 },
  },
];

let dir: string;
let target: Awaited<ReturnType<typeof startFixtureTarget>>;
const env = { OPENAI_BASE_URL: "" };

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "ragmeter-calcases-"));
  await writeFile(path.join(dir, "cases.jsonl"), CASES.map((c) => JSON.stringify(c)).join("\n"));
  await writeFile(
    path.join(dir, "golden.jsonl"),
    JSON.stringify({ id: "q1", question: "Which port does PostgreSQL listen on?", expected_source: "pg.md", expected_substring: "port 5432" }),
  );
  target = await startFixtureTarget({
    "Which port does PostgreSQL listen on?": {
      answer: "PostgreSQL listens on port 5432.",
      contexts: [{ id: "pg#1", document_id: "pg.md", text: "PostgreSQL listens on port 5432.", score: 1 }],
    },
  });
});
afterAll(async () => {
  await target.close();
});

describe("calibrate sample --cases (a hand-labelled set, human fields from its labels)", () => {
  it("writes the review file, scores it, and the next run's summary shows the calibration", async () => {
    const file = path.join(dir, "review.json");
    const s = await cli(["calibrate", "sample", "--cases", path.join(dir, "cases.jsonl"), "--n", "10", "--out", file, "--home", dir], env);
    expect(s.code, s.err).toBe(0);
    expect(s.out).toContain("2 questions, 3 claims from the labelled set");
    const review = JSON.parse(await readFile(file, "utf8"));
    expect(review.judge.kind).toBe("heuristic");
    expect(review.items.map((i: { golden_id: string }) => i.golden_id)).toEqual(["en-a", "en-b"]);
    expect(review.items[0].claims.map((c: { judge_verdict: string; human_verdict: string }) => [c.judge_verdict, c.human_verdict])).toEqual([
      ["SUPPORTED", "SUPPORTED"],
      ["UNSUPPORTED", "CONTRADICTED"],
    ]);
    expect([review.items[1].judge_relevance, review.items[1].human_relevance]).toEqual([4, 1]);
    expect([review.items[0].judge_relevance, review.items[0].human_relevance]).toEqual([4, 4]);
    // claims: pairs (S,S) (U,C) (S,S): agreement 2/3; judge S 2/3, U 1/3; person S 2/3, C 1/3 → p_e = 4/9
    //   κ = (2/3 − 4/9) / (1 − 4/9) = (2/9) / (5/9) = 0.40
    // relevance: pairs (4,4) (4,1): agreement 1/2; judge one category → Σw·e = ½·w(4,4) + ½·w(4,1) = ½·9/16;
    //   Σw·o = ½·9/16 → κ_w = 1 − 1 = 0.00
    const sc = await cli(["calibrate", "score", file, "--home", dir], env);
    expect(sc.code, sc.err).toBe(0);
    expect(sc.out).toContain("claim verdicts  agreement 66.7%  Cohen's κ 0.40  (n=3 claims)");
    expect(sc.out).toContain("relevance 0–4   agreement 50.0%  quadratic-weighted κ 0.00  (n=2 questions)");
    const next = await cli(["eval", "--golden", path.join(dir, "golden.jsonl"), "--target", target.url, "--pipeline-version", "p1", "--k", "1", "--home", dir], env);
    expect(next.code, next.err).toBe(0);
    expect(next.out).toMatch(
      /^calibration: last for this judge \d{4}-\d{2}-\d{2} \(cal-\S+, run cases:\S+\): claims 66\.7% agreement, κ 0\.40 \(n=3\); relevance 50\.0%, quadratic-weighted κ 0\.00 \(n=2\)$/mu,
    );
  });
  it("names the line and field of a bad case, and asks for exactly one source", async () => {
    await writeFile(path.join(dir, "bad.jsonl"), `${JSON.stringify(CASES[0])}\n${JSON.stringify({ ...CASES[1], relevance: { min: 0, max: 9 } })}\n`);
    const bad = await cli(["calibrate", "sample", "--cases", path.join(dir, "bad.jsonl"), "--out", path.join(dir, "x.json"), "--home", dir], env);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain(`ragmeter: ${path.join(dir, "bad.jsonl")}:2: field "relevance.max":`);
    const none = await cli(["calibrate", "sample", "--out", path.join(dir, "y.json"), "--home", dir], env);
    expect(none.code).toBe(2);
    expect(none.err).toContain("ragmeter: calibrate sample: give either --run <run_id> or --cases <file>");
  });
});
