import type { GoldenItem } from "@ragmeter/golden";
import type { z } from "zod";
import type { ChunkVerdict, ClaimVerdict, JudgeCallCost, ReferenceFact } from "./judgments.js";
import type { Status } from "./status.js";

/** A retrieved item as the pipeline recorded it (rank order = array order). */
export interface RetrievedItem {
  readonly id: string;
  readonly document_id: string;
  readonly text: string;
  readonly score: number | null;
}

/** One metric's value and status for one question. */
export interface MetricValue {
  readonly value: number | null;
  readonly status: Status | string;
}

/**
 * One metric's outcome for one question: its value (a number exactly when `status` is `ok`), why,
 * what its judge calls cost (judged metrics) and the drill-down that explains it.
 */
export interface Outcome extends Partial<JudgeCallCost> {
  readonly value: number | null;
  readonly status: Status;
  /** Why the value is what it is ("" when there is nothing to say); stored as `reason`. */
  readonly reason: string;
  /** Grounding's claims with their verdicts. */
  readonly claims?: readonly ClaimVerdict[];
  /** The reference answer's facts and whether the answer states them. */
  readonly facts?: readonly ReferenceFact[];
  /** Per retrieved chunk verdicts (context relevance). */
  readonly chunks?: readonly ChunkVerdict[];
  /** The no-LLM judge's grounding risk (design §5). */
  readonly risk?: number;
  /** Rank of the first retrieved item that is a hit (retrieval metrics), null when none. */
  readonly hit_rank?: number | null;
  /** Judged metrics run more than once (`--repeat N`): each repeat's outcome; the fields above combine them. */
  readonly repeats?: readonly Outcome[];
}

/** What a golden item expects of the answer; null for live traffic (no golden item). */
export type Expectations = Omit<GoldenItem, "id" | "question" | "tags" | "unconfirmed"> | null;

/**
 * What a metric needs to apply; a metric whose need is not met is stored with a status and reason
 * instead of a value (never computed, no judge call): `answerable` a golden item with an expected
 * source, `unanswerable` one without, `facts` / `reference` a golden item that lists key facts / a reference answer,
 * `question` / `answer` / `chunks` the texts (captured on traces), `retrieval` the ranked retrieved items.
 */
export type Need = "answerable" | "unanswerable" | "facts" | "reference" | "question" | "answer" | "chunks" | "retrieval";

/** What one question gives its metrics. */
export interface MetricInput {
  readonly question: string;
  readonly answer: string;
  /** Retrieved items in rank order. */
  readonly contexts: readonly RetrievedItem[];
  /** The contexts as a judge sees them: an item without a chunk id is named by its rank (`#2`). */
  readonly chunks: readonly { readonly id: string; readonly text: string }[];
  readonly expect: Expectations;
  /** The golden item has an expected source. */
  readonly answerable: boolean;
  /** The answer declines to answer. */
  readonly abstained: boolean;
  /** The k of a per-k metric (5 for recall@5), else 0. */
  readonly k: number;
}

/** What every entry of the metric table says (design §5). */
interface MetricBase {
  /** Stored and printed name (recall@<k>, mrr, …). */
  readonly name: string;
  /** `retrieval` (from the ranked contexts), `judged` (by a judge) or `answer` (mechanical, from the answer). */
  readonly kind: "retrieval" | "judged" | "answer";
  /** What it needs to apply (checked in this order). */
  readonly needs: readonly Need[];
  /** Whether it can apply to live traffic (no golden item): when false, live traces store no `not_applicable` row for it. */
  readonly live: boolean;
  /** Judged only by the backends that have its task (not every backend does): shown only in runs that judged it. */
  readonly optional: boolean;
  /** Largest value: 1 for shares, 4 for relevance (0–4). */
  readonly max?: number;
  /** Label in the text and HTML outputs (the name when absent). */
  readonly label?: string;
  /** A headline metric: in the "moved most" list, the trend charts and the runs table (per-k metrics only at the headline k). */
  readonly headline: boolean;
  /** A column of the by-tag tables. */
  readonly byTag: boolean;
  /** Drawn in the report's trend chart and a column of its runs table (per-k metrics only at the headline k). */
  readonly trend: boolean;
  /** Colour of its series in the report's charts. */
  readonly color?: string;
  /** A rise is the regression (a risk, an error rate): gates, "worse" and colours read its deltas the other way. */
  readonly lowerIsBetter?: boolean;
  /**
   * Watched by the Grafana alert rules: its mean dropping (rising when `lowerIsBetter`) between pipeline
   * versions and in the last hour, beyond the bound `RAGMETER_ALERT_<NAME>_DROP` (`_RISE`; a per-k
   * metric's name without `@<k>`, its k `RAGMETER_ALERT_<NAME>_K`), a setting of the catalog.
   */
  readonly alerted?: boolean;
  /** Its judgments hold claims, stored in the `claims` table (one metric per run does: grounding). */
  readonly claims?: boolean;
  /** The label of a measured value on its `gen_ai.evaluation.result` event (design §15), from the value and its claims' verdicts; `ok` when absent. */
  evaluationLabel?(value: number, verdicts: readonly string[]): string;
}

/** A metric computed without a judge. */
export interface MechanicalMetric extends MetricBase {
  readonly kind: "retrieval" | "answer";
  /** Its outcome for one question whose needs are met. */
  compute(input: MetricInput): Outcome;
}

/** A metric produced by a judge task. */
export interface JudgedMetric extends MetricBase {
  readonly kind: "judged";
  /** The judge task (a backend judges the tasks of its `promptVersion`). */
  readonly task: string;
  /** The request sent for one question whose needs are met (the judge cache keys on it). */
  request(input: MetricInput): JudgeRequestOf;
  /**
   * A metric read from its task's judgment (of another metric with the same task and request): no call
   * of its own; its outcome is this view of the judgment (per repeat), carrying no cost.
   */
  view?(judgment: Outcome): Outcome;
  /** Why a request is not worth a judge call (stored `not_applicable` with this reason), or null. */
  unjudged?(request: JudgeRequestOf): string | null;
  /**
   * How each backend judges the task, for a metric whose backends do not know it natively (the
   * built-in grounding, relevance and reference tasks have none): the backends add every form the
   * table holds, so a new judged metric is its entry alone.
   */
  readonly forms?: JudgeForms;
}

/** A read-only set of terms: what a form asks of one (a `Set<string>` is one). */
export interface TermSet extends Iterable<string> {
  readonly size: number;
  has(term: string): boolean;
}

/** The text tools the no-LLM backend lends a metric's no-LLM form: its tokenizer. */
export interface TextTools {
  /** The content terms of a text: stems of its content words and its numbers (en/ru/zh, as relevance counts them). */
  terms(text: string): ReadonlySet<string>;
  /**
   * {@link terms} of a retrieved chunk's text, kept by the text's hash within the judge's chunk cache
   * bound (chunks recur across traces, questions do not).
   */
  passageTerms(text: string): TermSet;
}

/** What a form judges: a value with its status and why, and per-chunk verdicts; the backend adds the cost. */
interface FormJudgment {
  readonly status: Status;
  readonly value: number | null;
  readonly reason?: string;
  readonly chunks?: readonly ChunkVerdict[];
}

/** An LLM form of a judge task: one call with a system prompt, a user message and a reply schema. */
export interface LlmForm<T> {
  /** The system prompt (its hash is the task's prompt version). */
  readonly prompt: string;
  /** The user message of one request. */
  user(request: JudgeRequestOf): string;
  /** The reply's schema: sent as the JSON schema of the reply and read with it. */
  readonly reply: z.ZodType<T>;
  /** The reply's token bound for one request. */
  replyTokens(request: JudgeRequestOf): number;
  /** The judgment of a valid reply. */
  judgment(reply: T, request: JudgeRequestOf): FormJudgment;
}

/** The forms of a judge task, by backend. */
interface JudgeForms {
  /** The no-LLM form (deterministic). */
  heuristic?(request: JudgeRequestOf, tools: TextTools): FormJudgment;
  /** The no-LLM form's rules in words, with their constants: its prompt version hashes them (change them with the rules). */
  readonly heuristicRules?: string;
  // biome-ignore lint/suspicious/noExplicitAny: each form reads its own reply type
  readonly llm?: LlmForm<any>;
}

/** A judge request as a metric builds it (the judges' `JudgeRequest`). */
export interface JudgeRequestOf {
  readonly question: string;
  readonly answer?: string;
  readonly chunks?: readonly { readonly id: string; readonly text: string }[];
  readonly answerable?: boolean | null;
  readonly reference?: string;
}

/** One entry of the metric table. */
export type MetricDef = MechanicalMetric | JudgedMetric;

/** A successful outcome. */
export function measured(value: number, reason = ""): Outcome {
  return { status: "ok", value, reason };
}
