import path from "node:path";
import { pathToFileURL } from "node:url";
import { ConfigError } from "@ragmeter/core/domain/errors";
import { createJiti } from "jiti";
import { parseTargetReply, type Target, type TargetResult } from "./target.js";

/** What a target module's `ask` receives besides the question. */
export interface TargetModuleOptions {
  /** The largest k asked. */
  readonly k: number;
  /** `traceparent` and `baggage` of this question (pass them on to your spans or services). */
  readonly headers: Readonly<Record<string, string>>;
  /** Aborted after the target timeout. */
  readonly signal: AbortSignal;
}

/** The function a target module exports: `async ask(question, {k, headers, signal})` → `{answer, contexts}`. */
export type TargetModuleAsk = (question: string, options: TargetModuleOptions) => Promise<unknown>;

/**
 * Loads a target module (`eval --target-module FILE`, issue 12): `.ts`, `.mts` and `.cts` through
 * jiti, anything else with `import()`.
 * @throws ConfigError when the module cannot be loaded or exports no `ask` function.
 */
export async function loadTargetModule(file: string): Promise<TargetModuleAsk> {
  const abs = path.resolve(file);
  let mod: Record<string, unknown>;
  try {
    mod = /\.[mc]?ts$/u.test(abs) ? await createJiti(import.meta.url).import<Record<string, unknown>>(abs) : ((await import(pathToFileURL(abs).href)) as Record<string, unknown>);
  } catch (err) {
    throw new ConfigError(`--target-module ${file}: cannot load (${(err as Error).message.split("\n")[0]})`);
  }
  const ask = mod["ask"] ?? (mod["default"] as Record<string, unknown> | undefined)?.["ask"];
  if (typeof ask !== "function") throw new ConfigError(`--target-module ${file}: exports no function "ask" (export async function ask(question, {k, headers, signal}))`);
  return ask as TargetModuleAsk;
}

/**
 * A target that calls a module's `ask` in process with the trace headers; a throw, a timeout or a
 * reply without `answer`/`contexts` is `{ok: false, reason}` (`target_error`). Contexts without a
 * `document_id` get their chunk id as document id.
 */
export function moduleTarget(ask: TargetModuleAsk, options: { readonly k: number; readonly timeoutMs: number; readonly file: string }): Target {
  return {
    description: `module ${options.file}`,
    async ask(question, headers): Promise<TargetResult> {
      const t0 = performance.now();
      const elapsed = (): number => performance.now() - t0;
      const signal = AbortSignal.timeout(options.timeoutMs);
      let reply: unknown;
      try {
        const aborted = new Promise<never>((_, reject) => signal.addEventListener("abort", () => reject(signal.reason), { once: true }));
        reply = await Promise.race([ask(question, { k: options.k, headers: { traceparent: headers.traceparent, baggage: headers.baggage }, signal }), aborted]);
      } catch (err) {
        const e = err as Error;
        return { ok: false, reason: e?.name === "TimeoutError" ? `timeout after ${options.timeoutMs} ms` : `ask threw: ${e?.message ?? String(err)}`, latency_ms: elapsed() };
      }
      const r = parseTargetReply(reply);
      return r.ok ? { ok: true, reply: r.reply, latency_ms: elapsed() } : { ok: false, reason: r.reason, latency_ms: elapsed() };
    },
  };
}
