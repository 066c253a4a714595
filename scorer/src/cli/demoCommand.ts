import { loadGoldenSet } from "@ragmeter/golden";
import { createSamplePipeline, SAMPLE_CORPUS_DIR, SAMPLE_GOLDEN_FILE, type SamplePipeline } from "@ragmeter/sample-rag";
import type { Command } from "commander";
import OpenAI from "openai";
import type { Target } from "../runs/target.js";
import { type CommandContext, intArg, judgeOptions } from "./args.js";
import type { Config } from "./config.js";
import { type Io, judgeFor, withEvaluationExport, withStore } from "./context.js";
import { EXIT, evalSpec, evaluateAndReport, type JudgeRunFlags } from "./evalCommand.js";

/** An in-process target over the sample pipeline (no HTTP). */
export function inProcessTarget(pipeline: SamplePipeline): Target {
  return {
    description: `in-process sample pipeline ${pipeline.version}`,
    async ask(question) {
      const t0 = performance.now();
      try {
        const r = await pipeline.ask(question);
        return { ok: true, reply: { answer: r.answer, contexts: r.contexts, model: r.model, pipeline_version: `sample-${pipeline.version}` }, latency_ms: performance.now() - t0 };
      } catch (err) {
        return { ok: false, reason: `pipeline failed: ${(err as Error).message}`, latency_ms: performance.now() - t0 };
      }
    },
  };
}

/** What each sample pipeline version does differently. */
const PIPELINE_KIND = { v1: "section chunks", v2: "fixed 220-character chunks + deliberate answer fault" } as const;

/** The sample pipeline's LLM: `RAGMETER_SAMPLE_MODEL` through the judge's endpoint; undefined (extractive answers) without both. */
function sampleLlm(config: Config): { client: OpenAI; model: string } | undefined {
  if (!config.sampleModel || !config.judge) return undefined;
  return { client: new OpenAI({ baseURL: config.judge.baseURL, apiKey: config.judge.apiKey ?? "none" }), model: config.sampleModel };
}

/**
 * `ragmeter demo` / `npm run demo`: evaluates sample pipeline v1 then v2 on the bundled golden set,
 * in process, each compared with the previous comparable run. Returns the exit code.
 */
export async function demoCommand(io: Io, flags: { home?: string; concurrency: number } & JudgeRunFlags): Promise<number> {
  const golden = await loadGoldenSet(SAMPLE_GOLDEN_FILE, { corpusDir: SAMPLE_CORPUS_DIR });
  return withStore(io, flags, (store, config) =>
    withEvaluationExport(
      config,
      "ragmeter-eval",
      (m) => io.err(`warning: ${m}`),
      async (evaluations) => {
        const judge = await judgeFor(config);
        const llm = sampleLlm(config);
        for (const version of ["v1", "v2"] as const) {
          const pipeline = await createSamplePipeline({ version, ...(llm ? { llm } : {}) });
          io.out(`\n=== sample pipeline ${version}: ${PIPELINE_KIND[version]} (${pipeline.chunkCount} chunks) ===`);
          const target = inProcessTarget(pipeline);
          const spec = evalSpec(golden, target, { pipelineVersion: `sample-${version}`, ks: [1, 3, 5, 10], judging: flags, prices: config.prices });
          const outcome = await evaluateAndReport(io, store, judge, spec, target, { concurrency: flags.concurrency, evaluations });
          if (outcome === null) return EXIT.usage;
        }
        return EXIT.done;
      },
    ),
  );
}

/** Registers `ragmeter demo`. */
export function registerDemoCommand(program: Command, ctx: CommandContext): void {
  const { io, result, home } = ctx;
  judgeOptions(program.command("demo"))
    .description("evaluate sample pipeline v1 then v2 on the bundled golden set (in process, no server)")
    .option("--concurrency <n>", "questions in flight at once", intArg(1, 256), 4)
    .addOption(home())
    .action(async (o: { concurrency: number; home?: string; cache: boolean; repeat: number; maxCost?: number }) => {
      result.code = await demoCommand(io, o);
    });
}
