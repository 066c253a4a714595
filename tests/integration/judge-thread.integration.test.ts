import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { createHeuristicJudge } from "../../core/src/judges/heuristic/heuristicJudge.js";
import { type ThreadJudge, threadJudge } from "../../core/src/judges/thread/threadJudge.js";
import type { JudgeRequest, Judgment } from "../../core/src/judges/types.js";

// The heuristic judge on its own thread (RAGMETER_JUDGE_THREAD, design §6): its judgments equal the
// calling thread's, call for call (an independent computation: the same rules run inline), on the
// bundled sample's golden set; a thread that cannot be used hands its calls to the inline judge.
const root = path.resolve(import.meta.dirname, "../..");
const sample = path.join(root, "examples/sample-rag");
const golden = readFileSync(path.join(sample, "golden.jsonl"), "utf8")
  .split("\n")
  .filter((l) => l.trim() !== "")
  .map((l) => JSON.parse(l) as { question: string; expected_source: string | null; reference_answer?: string });
/** A document's paragraphs, the chunks a retriever would give (the first five). */
const chunksOf = (source: string): { id: string; text: string }[] =>
  readFileSync(path.join(sample, "corpus", source), "utf8")
    .split(/\n\s*\n/u)
    .filter((p) => p.trim().length > 40)
    .slice(0, 5)
    .map((text, i) => ({ id: `${source}#${i}`, text }));
const anyDoc = path.join("servers", readdirSync(path.join(sample, "corpus/servers"))[0] as string);
/** Every request of the sample: its reference answer against its source's chunks, and with a number changed (a contradiction to find). */
const requests: JudgeRequest[] = golden.flatMap((g) => {
  const answer = g.reference_answer ?? "";
  const chunks = chunksOf(g.expected_source ?? anyDoc);
  const changed = answer.replace(/\d/u, (d) => String((Number(d) + 3) % 10));
  return [
    { question: g.question, answer, chunks, answerable: g.expected_source !== null },
    { question: g.question, answer: changed, chunks, answerable: g.expected_source !== null },
  ];
});
const without = (j: Judgment): Omit<Judgment, "latency_ms"> => {
  const { latency_ms: _, ...rest } = j;
  return rest;
};
const standIn = (name: string): URL => new URL(`../helpers/judge-thread-${name}-child.mjs`, import.meta.url);
const opened: ThreadJudge[] = [];
afterAll(async () => {
  await Promise.all(opened.map((j) => j.close()));
});

describe("threadJudge", () => {
  it("judges every task of the sample's requests as the inline judge does, on its thread", async () => {
    const inline = createHeuristicJudge();
    const heard: string[] = [];
    const threaded = threadJudge(createHeuristicJudge(), (r) => heard.push(r));
    opened.push(threaded);
    expect(threaded.promptVersion).toEqual(inline.promptVersion);
    const tasks = Object.keys(inline.promptVersion);
    expect(tasks.length).toBeGreaterThanOrEqual(3);
    expect(requests.length).toBe(2 * golden.length);
    // All at once, as a scoring pass sends them: answered by id, whatever the order.
    const calls = requests.flatMap((r) => tasks.map((t) => ({ t, r })));
    const got = await Promise.all(calls.map(({ t, r }) => threaded.judge(t, r)));
    for (const [i, { t, r }] of calls.entries()) expect(without(got[i] as Judgment)).toEqual(without(await inline.judge(t, r)));
    // The changed numbers are found: some grounding judgments differ between the two forms of an item.
    const grounding = got.filter((_, i) => calls[i]?.t === "grounding").map((j) => j.value);
    expect(grounding.some((v, i) => i % 2 === 1 && v !== grounding[i - 1])).toBe(true);
    expect(threaded.where()).toEqual({ at: "thread" });
    expect(heard).toEqual([]);
  });

  it("rejects a task the judge has not, as the inline judge does", async () => {
    const threaded = threadJudge(createHeuristicJudge());
    opened.push(threaded);
    await expect(threaded.judge("no-such-task", requests[0] as JudgeRequest)).rejects.toThrow(/no "no-such-task" task/u);
    expect(threaded.where()).toEqual({ at: "thread" });
  });

  it("judges inline, saying why once, when the thread exits, says other prompt versions or its module is missing", async () => {
    const inline = createHeuristicJudge();
    const expected = without(await inline.judge("grounding", requests[1] as JudgeRequest));
    for (const [entry, why] of [
      [standIn("exits"), /exited \(code 3\)/u],
      [standIn("other-versions"), /prompt versions differ.*grounding: 000000000000 vs [0-9a-f]{12}/u],
      [null, /module is not built/u],
    ] as const) {
      const heard: string[] = [];
      const threaded = threadJudge(createHeuristicJudge(), (r) => heard.push(r), entry);
      opened.push(threaded);
      const first = threaded.judge("grounding", requests[1] as JudgeRequest);
      // Once the thread is known to be unusable, a later call is judged inline at once.
      await expect.poll(() => threaded.where().at, { timeout: 5_000 }).toBe("inline");
      expect(without(await first)).toEqual(expected);
      expect(without(await threaded.judge("grounding", requests[1] as JudgeRequest))).toEqual(expected);
      expect(heard).toHaveLength(1);
      expect(heard[0]).toMatch(why);
    }
  });

  it("judges the calls still pending inline when closed, and every later one", async () => {
    const inline = createHeuristicJudge();
    const heard: string[] = [];
    const threaded = threadJudge(createHeuristicJudge(), (r) => heard.push(r), standIn("silent"));
    const pending = requests.slice(0, 4).map((r) => threaded.judge("relevance", r));
    await threaded.close();
    expect(threaded.where()).toEqual({ at: "inline", reason: "the judge thread was closed" });
    const after = await threaded.judge("relevance", requests[5] as JudgeRequest);
    expect((await Promise.all(pending)).map(without)).toEqual(await Promise.all(requests.slice(0, 4).map(async (r) => without(await inline.judge("relevance", r)))));
    expect(without(after)).toEqual(without(await inline.judge("relevance", requests[5] as JudgeRequest)));
    // Closing is not a failure: nothing is said.
    expect(heard).toEqual([]);
  });

  it("does not keep a process alive: one that built it, judged with it and did not close it ends on its own", () => {
    // A command that fails after building its judge (a scorer whose Kafka refuses it) must still exit.
    const dist = (m: string): string => pathToFileURL(path.join(root, "core/dist/judges", m)).href;
    const script = `
      import { createHeuristicJudge } from ${JSON.stringify(dist("heuristic/heuristicJudge.js"))};
      import { threadJudge } from ${JSON.stringify(dist("thread/threadJudge.js"))};
      const idle = threadJudge(createHeuristicJudge());
      const used = threadJudge(createHeuristicJudge());
      const j = await used.judge("relevance", { question: "Which port?", answer: "Port 5432.", answerable: true });
      console.log(j.status, used.where().at, idle.where().at);`;
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", timeout: 20_000 });
    expect(r.signal, r.stderr).toBeNull();
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe("ok thread thread");
  });
});
