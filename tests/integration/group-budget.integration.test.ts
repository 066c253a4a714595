// The judge budget of a whole scorer group (issue 38, deliverable 3; design §5): two streaming scorers
// on one embedded ClickHouse engine, each with its own JudgeBudget and the same cap, the LLM judge (the
// real `openai` client) against the scripted OpenAI-compatible server (2 requests per judged trace,
// 120 tokens each). What one scorer spent and wrote to ingestion_stats counts in the other's budget,
// and a scorer restarted within the hour counts what its earlier process spent.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JudgeBudget } from "../../core/src/scoring/budget.js";
import { openStore, type Store } from "../../store/src/client.js";
import { capOf, exhausted, judged, scoredStatuses, send, startGoodJudge, startJudgedScorer } from "../helpers/judgedScorers.js";
import { rows, waitFor } from "../helpers/streaming.js";

let judgeServer: Awaited<ReturnType<typeof startGoodJudge>>;
let store: Store;
beforeAll(async () => {
  judgeServer = await startGoodJudge();
  store = await openStore({ kind: "embedded", home: await mkdtemp(path.join(tmpdir(), "ragmeter-group-budget-")), database: "ragmeter" });
});
afterAll(async () => {
  await store?.close();
  await judgeServer?.close();
});

const startScorer = (budget: JudgeBudget, warnings: string[] = []) => startJudgedScorer(store, judgeServer.baseURL, budget, warnings);
const statusesOf = (ids: readonly string[]) => scoredStatuses(store, ids);

/** What the scorers wrote to ingestion_stats for `service`: judge calls and tokens, and budget skips of all services. */
async function statsOf(service: string): Promise<{ calls: string; tokens: string }> {
  const r = await rows<{ calls: string; tokens: string }>(
    store,
    "SELECT sum(judge_calls_by_service[{s:String}]) AS calls, sum(judge_tokens_by_service[{s:String}]) AS tokens FROM DB.ingestion_stats FINAL",
    { s: service },
  );
  return r[0] ?? { calls: "", tokens: "" };
}

describe("the judge budget of a scorer group (ingestion_stats.judge_calls_by_service)", () => {
  it("cap 6 calls: scorer A judges 2 traces (4 calls); scorer B, once it read A's row, judges 1 of 3 and marks 2 budget_exhausted; A then marks its next one", async () => {
    const before = judgeServer.requests.length;
    const budgetA = capOf("shared", 6);
    const budgetB = capOf("shared", 6);
    const a = await startScorer(budgetA);
    const b = await startScorer(budgetB);
    try {
      const first = await statusesOf(await send(a, "shared", 2));
      expect(first.every(judged)).toBe(true);
      // A's stats row (written every 300 ms) read by B after its own write: B's budget holds A's 4 calls
      await waitFor(async () => budgetB.groupInHour("shared", Date.now()).calls === 4, 10_000);
      expect(budgetB.groupInHour("shared", Date.now())).toEqual({ calls: 4, tokens: 480 });
      // 4 spent by A + 2 reserved or spent by B's first trace = 6: the other two are not judged
      const second = await statusesOf(await send(b, "shared", 3));
      expect(second.filter(judged)).toHaveLength(1);
      const out = second.filter(exhausted);
      expect(out).toHaveLength(2);
      for (const s of out)
        expect(s.reason).toMatch(
          /^judge budget of 6 calls per hour used by service "shared" \((4|6) in the last 60 minutes, 4 of them by other scorers of the group or before a restart(, 2 more reserved by traces being judged)?; RAGMETER_JUDGE_CALLS_PER_HOUR_BY_SERVICE\)$/u,
        );
      // counted once the pass's writes are done (the scores are read a moment earlier)
      await waitFor(async () => b.stats().judge_skipped.budget_exhausted === 4, 5_000);
      // A: its own 4 + B's 2 once read
      await waitFor(async () => budgetA.groupInHour("shared", Date.now()).calls === 2, 10_000);
      const third = await statusesOf(await send(a, "shared", 1));
      expect(third.map(exhausted)).toEqual([true]);
      expect(third[0]?.reason).toMatch(/^judge budget of 6 calls per hour used by service "shared" \(6 in the last 60 minutes, 2 of them by other scorers/u);
      await waitFor(async () => a.stats().judge_skipped.budget_exhausted === 2, 5_000);
      // 2 requests per judged trace: 2 by A, 1 by B (without the group's spend B would have judged all 3)
      expect(judgeServer.requests.length - before).toBe(2 * 3);
    } finally {
      await a.stop();
      await b.stop();
    }
    // the rows the budgets read: 3 judged traces × 2 calls × 120 tokens; 6 budget skips (2 metrics × 3 traces)
    expect(await statsOf("shared")).toEqual({ calls: "6", tokens: "720" });
    const skips = await rows<{ n: string }>(store, "SELECT sum(judge_skipped_budget_exhausted) AS n FROM DB.ingestion_stats FINAL");
    expect(skips).toEqual([{ n: "6" }]);
  });

  it("cap 4 calls: a scorer judges 1 trace, stops and starts again within the hour: it counts those 2 calls from its start, judges 1 of 2 more", async () => {
    const before = judgeServer.requests.length;
    const first = await startScorer(capOf("solo", 4));
    try {
      expect((await statusesOf(await send(first, "solo", 1))).map(judged)).toEqual([true]);
    } finally {
      await first.stop();
    }
    // a new process: a fresh budget, another scorer_id; the earlier process's row is read before the first pass
    const budget = capOf("solo", 4);
    const again = await startScorer(budget);
    try {
      expect(budget.groupInHour("solo", Date.now())).toEqual({ calls: 2, tokens: 240 });
      const after = await statusesOf(await send(again, "solo", 2));
      expect(after.filter(judged)).toHaveLength(1);
      expect(after.filter(exhausted)).toHaveLength(1);
      expect(judgeServer.requests.length - before).toBe(2 * 2);
    } finally {
      await again.stop();
    }
    expect(await statsOf("solo")).toEqual({ calls: "4", tokens: "480" });
    const scorers = await rows<{ n: string }>(store, "SELECT uniqExact(scorer_id) AS n FROM DB.ingestion_stats FINAL WHERE judge_calls_by_service['solo'] > 0");
    expect(scorers).toEqual([{ n: "2" }]);
  });

  it("a store read that fails leaves the last figures, warned once, and scoring goes on", async () => {
    const budget = capOf("flaky", 100);
    const warnings: string[] = [];
    const svc = await startScorer(budget, warnings);
    const saved = store.database;
    try {
      // the group's spend from an earlier process, read at the next stats write
      await store.client.insert({
        table: `${saved}.ingestion_stats`,
        values: [
          { minute: Math.floor(Date.now() / 60_000) * 60, scorer_id: "earlier", judge_calls_by_service: { flaky: 10 }, judge_tokens_by_service: { flaky: 1000 }, version: 1 },
        ],
        format: "JSONEachRow",
      });
      await waitFor(async () => budget.groupInHour("flaky", Date.now()).calls === 10, 10_000);
      // the read fails from now on (the table renamed away): the figures stay, one warning
      await store.client.command({ query: `RENAME TABLE ${saved}.ingestion_stats TO ${saved}.ingestion_stats_away` });
      await waitFor(async () => warnings.some((w) => w.startsWith("judge budget: the group's spend not read")), 10_000);
      await new Promise((r) => setTimeout(r, 1_000));
      expect(warnings.filter((w) => w.startsWith("judge budget: the group's spend not read"))).toHaveLength(1);
      expect(budget.groupInHour("flaky", Date.now())).toEqual({ calls: 10, tokens: 1000 });
      expect((await statusesOf(await send(svc, "flaky", 1))).map(judged)).toEqual([true]);
    } finally {
      await store.client.command({ query: `RENAME TABLE ${saved}.ingestion_stats_away TO ${saved}.ingestion_stats` });
      await svc.stop();
    }
  });
});
