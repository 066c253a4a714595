import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createHeuristicJudge } from "../../core/src/judges/heuristic/heuristicJudge.js";
import { judgeGrounding } from "../../core/src/judges/types.js";
import { serveCommand } from "../../scorer/src/cli/streamCommands.js";
import { openStore } from "../../store/src/client.js";
import { startLiveAndDarkSamples } from "../helpers/sampleServe.js";

const io = (env: NodeJS.ProcessEnv) => ({ out: () => {}, err: () => {}, interactive: false, env, cwd: process.cwd() });

describe("ragmeter serve: collector + scorer in one process (in-process hand-off, embedded store)", () => {
  it("scores live traces from the instrumented sample pipeline once they settle; no content → content_missing", async () => {
    const home = await mkdtemp(path.join(tmpdir(), "ragmeter-serve-"));
    const ac = new AbortController();
    let url = "";
    const ready = new Promise<void>((r) => {
      void serveCommand(io({}), { home, port: 0, host: "127.0.0.1", quietMs: 300 }, ac.signal, (u) => {
        url = u;
        r();
      }).then((code) => expect(code).toBe(0));
    });
    await ready;
    const { withContent, noContent } = await startLiveAndDarkSamples(url);
    const questions = ["What port does managed PostgreSQL listen on?", "How do I enable automatic top-up?"];
    const replies: { answer: string; contexts: { id: string; text: string }[] }[] = [];
    for (const q of questions) {
      const r = await fetch(withContent.url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ question: q }) });
      replies.push((await r.json()) as (typeof replies)[number]);
    }
    await fetch(noContent.url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ question: questions[0] }) });
    await Promise.all([withContent.stop(), noContent.stop()]); // flushes the batch span processors
    await new Promise((r) => setTimeout(r, 800)); // > quiet window
    ac.abort();
    await new Promise((r) => setTimeout(r, 1500));

    const store = await openStore({ kind: "embedded", home, database: "ragmeter" });
    try {
      const rs = await store.client.query({
        query: "SELECT trace_id, source, service_name, question, answer, length(retrieved) AS n, status FROM ragmeter.interactions FINAL ORDER BY service_name, question",
        format: "JSONEachRow",
      });
      const rows = (await rs.json()) as { trace_id: string; source: string; service_name: string; question: string; answer: string | null; n: number; status: string }[];
      expect(rows.map((r) => [r.service_name, r.source])).toEqual([
        ["sample-dark", "live"],
        ["sample-live", "live"],
        ["sample-live", "live"],
      ]);
      const live = rows.filter((r) => r.service_name === "sample-live");
      expect(live.map((r) => r.question).sort()).toEqual([...questions].sort());
      // Independent check: the heuristic judge on the reply the target returned gives the stored grounding.
      const judge = createHeuristicJudge();
      for (const [i, q] of questions.entries()) {
        const row = live.find((r) => r.question === q)!;
        expect(row.answer).toBe(replies[i]!.answer);
        expect(Number(row.n)).toBe(replies[i]!.contexts.length);
        const expected = await judgeGrounding(judge, { question: q, answer: replies[i]!.answer, chunks: replies[i]!.contexts });
        const g = await store.client.query({
          query: "SELECT value, status FROM ragmeter.scores FINAL WHERE trace_id = {t:String} AND metric = 'grounding'",
          query_params: { t: row.trace_id },
          format: "JSONEachRow",
        });
        expect(await g.json()).toEqual([{ value: expected.value, status: expected.status }]);
      }
      const dark = rows.find((r) => r.service_name === "sample-dark")!;
      const d = await store.client.query({
        query: "SELECT metric, status FROM ragmeter.scores FINAL WHERE trace_id = {t:String} ORDER BY metric",
        query_params: { t: dark.trace_id },
        format: "JSONEachRow",
      });
      const statuses = Object.fromEntries(((await d.json()) as { metric: string; status: string }[]).map((x) => [x.metric, x.status]));
      expect(statuses["grounding"]).toBe("content_missing");
      expect(statuses["relevance"]).toBe("content_missing");
      // context relevance needs the question and the retrieved texts, neither captured
      expect(statuses["context_relevance"]).toBe("content_missing");
      expect(statuses["recall@5"]).toBeUndefined(); // live traffic: recall can never apply, no row is written
      expect(statuses["grounding_risk"]).toBe("content_missing");
      expect(Object.keys(statuses).sort()).toEqual(["context_relevance", "grounding", "grounding_risk", "relevance"]);
      const stats = await store.client.query({
        query: "SELECT sum(spans_received) AS spans, sum(traces_scored) AS scored FROM ragmeter.ingestion_stats FINAL",
        format: "JSONEachRow",
      });
      // 3 traces × (interaction, retrieval, generation span)
      expect(await stats.json()).toEqual([{ spans: "9", scored: "3" }]);
    } finally {
      await store.close();
    }
  });
});
