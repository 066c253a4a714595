import type { JudgeRequestOf, LlmForm } from "../../domain/metric.js";
import { JUDGED_METRICS } from "../../domain/metricTable.js";
import { promptVersion } from "../prompts.js";
import type { JudgeTask, Judgment } from "../types.js";
import { costOf, type JudgeTransport, newTally } from "./transport.js";

/**
 * One judgment of an LLM form: a call with the form's prompt, user message and reply schema (sent as
 * the reply's JSON schema, read and retried by the transport); too long for the window →
 * `context_too_long`, a failed call → `judge_error` with its reason, else the form's judgment.
 */
// biome-ignore lint/suspicious/noExplicitAny: each form reads its own reply type
async function judgeByForm(transport: JudgeTransport, task: string, form: LlmForm<any>, request: JudgeRequestOf): Promise<Judgment> {
  const tally = newTally();
  const user = form.user(request);
  const bound = form.replyTokens(request);
  const tooLong = (): Judgment => ({ status: "context_too_long", value: null, reason: `the request exceeds the judge window of ${transport.window()} tokens`, ...costOf(tally) });
  if (!transport.fits(form.prompt, user, bound)) return tooLong();
  const r = await transport.call(form.prompt, user, task, form.reply, form.reply, bound, tally);
  if (!r.ok) return r.context ? tooLong() : { status: "judge_error", value: null, reason: r.reason, ...costOf(tally) };
  return { ...form.judgment(r.value, request), ...costOf(tally) };
}

/** The LLM tasks of the table's LLM forms, each versioned by its prompt. */
export function formTasks(transport: JudgeTransport): Record<string, { version: string; run: JudgeTask }> {
  const out: Record<string, { version: string; run: JudgeTask }> = {};
  for (const def of JUDGED_METRICS) {
    const form = def.forms?.llm;
    if (form !== undefined) out[def.task] = { version: promptVersion(form.prompt), run: (request) => judgeByForm(transport, def.task, form, request) };
  }
  return out;
}
