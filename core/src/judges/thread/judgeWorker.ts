/**
 * The judge thread (see {@link ./threadJudge.ts}): builds the heuristic judge, says its prompt
 * versions once loaded, then judges each request it is sent, in arrival order, and posts the
 * judgment back. Its event loop does nothing else: the rules' CPU (tokenizing chunks, aligning
 * claims) leaves the thread that accepts spans and writes them.
 */
import { parentPort } from "node:worker_threads";
import { createHeuristicJudge } from "../heuristic/heuristicJudge.js";
import type { JudgeRequest, Judgment } from "../types.js";

/** A request for the judge thread: judge `request` for `task`. */
export interface JudgeCall {
  readonly id: number;
  readonly task: string;
  readonly request: JudgeRequest;
}

/** To the main thread: loaded (with the judge's prompt versions), or the outcome of the call of that id. */
export type FromJudgeThread =
  | { readonly type: "ready"; readonly promptVersion: Readonly<Record<string, string>> }
  | { readonly type: "done"; readonly id: number; readonly judgment: Judgment }
  | { readonly type: "failed"; readonly id: number; readonly message: string };

const port = parentPort;
if (port === null) throw new Error("judgeWorker runs as a worker thread (threadJudge.ts starts it)");
const judge = createHeuristicJudge();
port.postMessage({ type: "ready", promptVersion: judge.promptVersion } satisfies FromJudgeThread);
port.on("message", (m: JudgeCall) => {
  // A programming error (a task the judge has not) is thrown, not returned: reported as that call's failure.
  Promise.resolve()
    .then(() => judge.judge(m.task, m.request))
    .then(
      (judgment) => port.postMessage({ type: "done", id: m.id, judgment } satisfies FromJudgeThread),
      (err: unknown) => port.postMessage({ type: "failed", id: m.id, message: err instanceof Error ? err.message : String(err) } satisfies FromJudgeThread),
    );
});
