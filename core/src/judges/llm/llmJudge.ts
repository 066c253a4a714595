import { JUDGE_TASKS } from "../../domain/judgments.js";
import { CLAIM_RULES } from "../heuristic/claims.js";
import { riskOf } from "../heuristic/model.js";
import { CLAIM_VERDICT_PROMPT, promptVersion, REFERENCE_PROMPT, RELEVANCE_PROMPT, referenceUserMessage, relevanceUserMessage } from "../prompts.js";
import {
  type GroundingInput,
  type GroundingJudgment,
  type Judge,
  judgeOf,
  type ReferenceInput,
  type ReferenceJudgment,
  type RelevanceInput,
  type RelevanceJudgment,
} from "../types.js";
import { isPlaceholder } from "./checks.js";
import { claimGrounding } from "./claimGrounding.js";
import { formTasks } from "./formTask.js";
import type { LlmJudgeOptions } from "./options.js";
import { referenceReplySchema, relevanceReplySchema } from "./replySchemas.js";
import { costOf, createJudgeTransport, newTally } from "./transport.js";

export type { LlmJudgeOptions } from "./options.js";

/**
 * LLM judges through the `openai` client (temperature 0; design §5). Each reply is validated with
 * zod; a reply in prose, in a code fence or holding several JSON blocks is read by {@link readReply}
 * (the last block that validates and passes the call's check). Every call is sent with an
 * output bound ({@link outputBounds}); a reply cut by it gets one retry with a larger bound, then
 * `judge_error` "reply truncated at N tokens". An unparseable reply, a placeholder claim, a verdict
 * citing a chunk that is not among the passages, or a relevance score outside 0–4 give `judge_error`
 * after `maxParseAttempts`; an HTTP failure after the retries gives `judge_error` with the reason;
 * the judgment's time budget running out gives `judge_error` naming `RAGMETER_JUDGE_TIMEOUT_MS`.
 * Grounding is claim by claim ({@link claimGrounding}): ragmeter's own claims, one verdict each,
 * against the passages or, over the window, each part of them. Never throws for one item.
 */
export function createLlmJudge(options: LlmJudgeOptions): Judge {
  const transport = createJudgeTransport(options);
  const { bounds, call, fits } = transport;
  // the claims are ragmeter's (the splitter's rules) and the verdicts the model's: both make the version
  const groundingVersion = promptVersion(`${CLAIM_VERDICT_PROMPT}\n${CLAIM_RULES}`);
  const tasks = {
    async grounding(input: GroundingInput): Promise<GroundingJudgment> {
      const tally = newTally();
      const chunks = input.chunks.filter((c) => c.text.trim().length > 0);
      const r = await claimGrounding(transport, input.question, input.answer, chunks, tally);
      const value = r.status === "ok" ? r.claims.filter((c) => c.verdict === "SUPPORTED").length / r.claims.length : null;
      // the grounding risk from the verdicts' support probabilities, when the endpoint gave every one (log-probabilities)
      const supports = r.claims.flatMap((c) => (c.support === undefined ? [] : [c.support]));
      const risk = r.status === "ok" && supports.length === r.claims.length ? { risk: riskOf("two_weakest", supports) } : {};
      return { status: r.status, value, claims: r.claims, ...risk, ...(r.reason !== undefined ? { reason: r.reason } : {}), ...costOf(tally) };
    },
    async relevance(input: RelevanceInput): Promise<RelevanceJudgment> {
      const tally = newTally();
      const user = relevanceUserMessage(input.question, input.answer);
      const tooLong = () => ({
        status: "context_too_long" as const,
        value: null,
        reason: `question and answer exceed the judge window of ${transport.window()} tokens`,
        ...costOf(tally),
      });
      if (!fits(RELEVANCE_PROMPT, user, bounds.relevance())) return tooLong();
      const r = await call(RELEVANCE_PROMPT, user, JUDGE_TASKS.relevance, relevanceReplySchema, relevanceReplySchema, bounds.relevance(), tally);
      if (!r.ok) return r.context ? tooLong() : { status: "judge_error", value: null, reason: r.reason, ...costOf(tally) };
      return { status: "ok", value: r.value.score, reason: r.value.reason, ...costOf(tally) };
    },
    async referenceFacts(input: ReferenceInput): Promise<ReferenceJudgment> {
      const tally = newTally();
      const user = referenceUserMessage(input.question, input.answer, input.reference);
      const bound = bounds.reference(input.reference);
      const tooLong = () => ({
        status: "context_too_long" as const,
        value: null,
        facts: [],
        reason: `reference and answer exceed the judge window of ${transport.window()} tokens`,
        ...costOf(tally),
      });
      if (!fits(REFERENCE_PROMPT, user, bound)) return tooLong();
      const r = await call(REFERENCE_PROMPT, user, JUDGE_TASKS.referenceFacts, referenceReplySchema, referenceReplySchema, bound, tally, (v) => {
        const i = v.facts.findIndex((f) => isPlaceholder(f.fact));
        return i < 0 ? null : `placeholder fact ${i + 1}: ${JSON.stringify(v.facts[i]?.fact)}`;
      });
      if (!r.ok) return r.context ? tooLong() : { status: "judge_error", value: null, facts: [], reason: r.reason, ...costOf(tally) };
      const facts = r.value.facts;
      if (facts.length === 0) return { status: "no_claims", value: null, facts, reason: "the reference answer states no fact", ...costOf(tally) };
      return { status: "ok", value: facts.filter((f) => f.stated).length / facts.length, facts, ...costOf(tally) };
    },
  };
  return judgeOf(
    { kind: "llm", model: options.model, metered: true },
    {
      [JUDGE_TASKS.grounding]: { version: groundingVersion, run: (r) => tasks.grounding(r as GroundingInput) },
      [JUDGE_TASKS.relevance]: { version: promptVersion(RELEVANCE_PROMPT), run: (r) => tasks.relevance(r as RelevanceInput) },
      [JUDGE_TASKS.referenceFacts]: { version: promptVersion(REFERENCE_PROMPT), run: (r) => tasks.referenceFacts(r as ReferenceInput) },
      ...formTasks(transport, options.extraTasks ?? []),
    },
  );
}
