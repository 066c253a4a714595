import type { JudgeRequestOf, LlmForm } from "../../domain/metric.js";
import { JUDGED_METRICS } from "../../domain/metricTable.js";
import { JudgeConfigError } from "../errors.js";
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

/**
 * The LLM tasks of the table's LLM forms asked for by name (`RAGMETER_JUDGE_EXTRA_TASKS`: each one
 * more call per answer), each versioned by its prompt.
 * @throws JudgeConfigError naming a task the table has no LLM form of.
 */
export function formTasks(transport: JudgeTransport, wanted: readonly string[]): Record<string, { version: string; run: JudgeTask }> {
  const forms = new Map(JUDGED_METRICS.flatMap((def) => (def.forms?.llm ? [[def.task, def.forms.llm] as const] : [])));
  const out: Record<string, { version: string; run: JudgeTask }> = {};
  for (const task of wanted) {
    const form = forms.get(task);
    if (form === undefined) throw new JudgeConfigError(`RAGMETER_JUDGE_EXTRA_TASKS: "${task}" is no LLM judge task (known: ${[...forms.keys()].join(", ") || "none"})`);
    out[task] = { version: promptVersion(form.prompt), run: (request) => judgeByForm(transport, task, form, request) };
  }
  return out;
}
