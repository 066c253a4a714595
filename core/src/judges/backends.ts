import type { CascadeOptions } from "./cascade/options.js";
import { JudgeConfigError } from "./errors.js";
import { createHeuristicJudge } from "./heuristic/heuristicJudge.js";
import type { LlmJudgeOptions } from "./llm/options.js";
import { threadJudge } from "./thread/threadJudge.js";
import type { Judge } from "./types.js";

/** What the registry knows of a backend without building it (for stored runs, whose judge is only a kind). */
interface BackendTraits {
  /** Its judgments call a model (see `Judge.metered`). */
  readonly metered: boolean;
  /** How the text output names a run of it that made no call (metered backends print their calls instead). */
  readonly unmeteredSummary?: string;
}

/**
 * The judge backends by kind (stored as `judge_kind`): the one place that builds judges and knows
 * what each kind is. A new backend is a folder under judges/ plus one entry here and one branch of
 * {@link createJudge}.
 */
const BACKENDS: Readonly<Record<string, BackendTraits>> = {
  heuristic: { metered: false, unmeteredSummary: "heuristic rules, no LLM calls" },
  llm: { metered: true },
  cascade: { metered: true },
};

/** The backend settings of a process: an LLM endpoint, or none (the heuristic judge); with both an endpoint and `cascade`, the cascade. */
export interface JudgeBackendSettings {
  readonly llm: LlmJudgeOptions | null;
  /** The cascade's options (`RAGMETER_JUDGE=cascade`): tier 1 on every answer, the LLM on the uncertain ones. */
  readonly cascade?: CascadeOptions | null;
  /**
   * The heuristic judge (no endpoint) on a thread of its own (`RAGMETER_JUDGE_THREAD`, live scoring:
   * {@link threadJudge}); `onInline` hears why, when it judges on the calling thread after all. Absent
   * or null: on the calling thread. The LLM and the cascade wait on their endpoint, not on a core.
   */
  readonly thread?: { readonly onInline: (reason: string) => void } | null;
}

/**
 * The judge the settings ask for: the cascade when its options and an endpoint are set, the LLM
 * judge when an endpoint is set, else the heuristic judge. The LLM judge (and with it the OpenAI
 * client) is loaded only when configured.
 * @throws JudgeConfigError for a cascade without an endpoint or with options its tiers do not allow.
 */
export async function createJudge(settings: JudgeBackendSettings): Promise<Judge> {
  const cascade = settings.cascade ?? null;
  if (settings.llm === null) {
    if (cascade !== null) throw new JudgeConfigError("RAGMETER_JUDGE=cascade needs an LLM endpoint: set OPENAI_BASE_URL and RAGMETER_JUDGE_MODEL");
    const heuristic = createHeuristicJudge();
    return settings.thread ? threadJudge(heuristic, settings.thread.onInline) : heuristic;
  }
  const { createLlmJudge } = await import("./llm/llmJudge.js");
  const llm = createLlmJudge(settings.llm);
  if (cascade === null) return llm;
  const { createCascadeJudge } = await import("./cascade/cascadeJudge.js");
  return createCascadeJudge(createHeuristicJudge(), llm, cascade);
}

/**
 * Whether runs judged by `kind` called a model (a kind this version does not know, from a newer
 * writer of the same store, is taken as metered: its calls and tokens are shown, never hidden).
 */
export function judgeKindMetered(kind: string): boolean {
  return BACKENDS[kind]?.metered ?? true;
}

/** How the text output names a run of an unmetered backend (undefined for metered ones). */
export function unmeteredSummary(kind: string): string | undefined {
  return judgeKindMetered(kind) ? undefined : (BACKENDS[kind]?.unmeteredSummary ?? `${kind}, no model calls`);
}

/** The judge as outputs name it: the kind, and the model when it differs (`llm gpt-4o-mini`, `heuristic`). */
export function judgeLabel(kind: string, model: string): string {
  return kind === model ? kind : `${kind} ${model}`;
}
