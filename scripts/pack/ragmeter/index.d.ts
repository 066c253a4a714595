// The types of the published `ragmeter` package (its `exports["."].types`). ragmeter is a command
// line tool with no JavaScript API; what a team writes against it is a target module
// (`ragmeter eval --target-module ./my-rag.ts`), typed here:
//
//   import type { Ask } from "ragmeter";
//   export const ask: Ask = async (question, { k, headers, signal }) => ({ answer, contexts });
//
// Kept equal to the CLI's own types (scorer/src/runs/targetModule.ts, target.ts) by
// tests/unit/packages.unit.test.ts.

/** What a target module's `ask` receives besides the question. */
export interface TargetModuleOptions {
  /** The largest k asked. */
  readonly k: number;
  /** `traceparent` and `baggage` of this question (pass them on to your spans or services). */
  readonly headers: Readonly<Record<string, string>>;
  /** Aborted after the target timeout (`RAGMETER_TARGET_TIMEOUT_MS`). */
  readonly signal: AbortSignal;
}

/** One retrieved chunk, in rank order. */
export interface TargetContext {
  /** Chunk id. */
  readonly id: string | number;
  /** Document the chunk belongs to (what a golden item's `expected_source` names); default the chunk id. */
  readonly document_id?: string | number;
  readonly text: string;
  readonly score?: number | null;
}

/** What `ask` resolves to (the same body an HTTP target answers). */
export interface TargetModuleReply {
  readonly answer: string;
  /** In rank order. */
  readonly contexts: readonly TargetContext[];
  /** Generator model, when known. */
  readonly model?: string;
  /** Pipeline version, when known (a mismatch with `--pipeline-version` is warned). */
  readonly pipeline_version?: string;
}

/** The function a target module exports as `ask`. */
export type Ask = (question: string, options: TargetModuleOptions) => Promise<TargetModuleReply>;
