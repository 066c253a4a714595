// The judge budget of a scorer group over ClickHouse's HTTP interface (issue 38; design §5): two scorers,
// each with a store client of its own (CLICKHOUSE_URL's path, @clickhouse/client) on the test front
// over the embedded engine (scripts/clickhouse-front, docs/scale-out.md), as scorers on two machines
// share one server. Its own file: the front owns this process's engine.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ClickHouseFront, startClickHouseFront } from "../../scripts/clickhouse-front/front.mjs";
import { openStore } from "../../store/src/client.js";
import { capOf, exhausted, judged, scoredStatuses, send, startGoodJudge, startJudgedScorer } from "../helpers/judgedScorers.js";
import { waitFor } from "../helpers/streaming.js";

let judgeServer: Awaited<ReturnType<typeof startGoodJudge>>;
beforeAll(async () => {
  judgeServer = await startGoodJudge();
});
afterAll(async () => {
  await judgeServer?.close();
});

describe("the judge budget of a scorer group over HTTP", () => {
  it("over ClickHouse's HTTP interface (the test front): two scorers, each with a store client of its own, cap 2 calls: A judges 1 trace, B's is budget_exhausted", async () => {
    const front: ClickHouseFront = await startClickHouseFront({ dataDir: await mkdtemp(path.join(tmpdir(), "ragmeter-group-budget-front-")), sessions: 2 });
    const storeA = await openStore({ kind: "server", url: front.url, database: "ragmeter" });
    const storeB = await openStore({ kind: "server", url: front.url, database: "ragmeter" });
    const budgetB = capOf("http", 2);
    const a = await startJudgedScorer(storeA, judgeServer.baseURL, capOf("http", 2));
    const b = await startJudgedScorer(storeB, judgeServer.baseURL, budgetB);
    try {
      expect((await scoredStatuses(storeA, await send(a, "http", 1))).map(judged)).toEqual([true]);
      await waitFor(async () => budgetB.groupInHour("http", Date.now()).calls === 2, 10_000);
      expect(budgetB.groupInHour("http", Date.now())).toEqual({ calls: 2, tokens: 240 });
      const [s] = await scoredStatuses(storeB, await send(b, "http", 1));
      expect(s?.reason).toBe(
        'judge budget of 2 calls per hour used by service "http" (2 in the last 60 minutes, 2 of them by other scorers of the group or before a restart; RAGMETER_JUDGE_CALLS_PER_HOUR_BY_SERVICE)',
      );
      expect(s && exhausted(s)).toBe(true);
    } finally {
      await a.stop();
      await b.stop();
      await storeA.close();
      await storeB.close();
      await front.close();
    }
  });
});
