import type { QuestionResult } from "@ragmeter/core/domain/result";
import type { Judge } from "@ragmeter/core/judges/types";
import { type Expectations, failedQuestion, scoreInteraction } from "@ragmeter/core/scoring/score";
import type { GoldenItem } from "@ragmeter/golden";
import type { TargetResult } from "./target.js";

/**
 * Scores one golden question from the target's reply (design §5): the reply is the answer under
 * test, scored against `options.expect` (default: the item's own expectations; null: none, as for
 * captured live traffic); a failed target call gives `target_error` on every metric.
 */
export async function scoreTargetResult(
  item: GoldenItem,
  traceId: string,
  result: TargetResult,
  judge: Judge,
  ks: readonly number[],
  options: { readonly repeat?: number; readonly expect?: Expectations; readonly noGoldenReason?: string } = {},
): Promise<QuestionResult> {
  if (!result.ok) return failedQuestion(item, traceId, "target_error", result.reason, result.latency_ms);
  const subject = { trace_id: traceId, golden_id: item.id, tags: item.tags, question: item.question, latency_ms: result.latency_ms };
  return scoreInteraction(
    subject,
    { answer: result.reply.answer, contexts: result.reply.contexts, model: result.reply.model },
    options.expect === undefined ? item : options.expect,
    {
      judge,
      ks,
      ...(options.repeat !== undefined ? { repeat: options.repeat } : {}),
      ...(options.noGoldenReason !== undefined ? { noGoldenReason: options.noGoldenReason } : {}),
    },
  );
}
