// `npx tsx bench/judges/cpu.ts [-- --root DIR] [--rounds N] [--warm]`: process CPU per answer of the
// heuristic grounding judge over the RAGTruth QA development answers (../shared/judge-dev), the
// judge alone (no eval, no store): each round judges every answer once, with a new judge (its chunk
// cache cold) or, with --warm, one judge whose cache a first pass filled. Prints every round and the
// median. --root points at another checkout of ragmeter (its scorer/src), to compare two versions of
// the judge on this machine in one sitting (the figures move with the machine's load: alternate runs).
import path from "node:path";
import { parseArgs } from "node:util";
import { type Judge, judgeGrounding } from "../../core/src/judges/types.js";
import { goodAnswers, judgeDevDir, loadRagTruth } from "./ragtruth.js";

interface HeuristicModule {
  createHeuristicJudge(): Judge;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { root: { type: "string" }, rounds: { type: "string", default: "7" }, warm: { type: "boolean", default: false } } });
  const root = path.resolve(values.root ?? path.join(path.dirname(new URL(import.meta.url).pathname), "..", ".."));
  const rounds = Number(values.rounds);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`bench/judges/cpu: --rounds ${values.rounds}: not a positive integer`);
  const mod = (await import(path.join(root, "core/src/judges/heuristic/heuristicJudge.ts"))) as HeuristicModule;
  const answers = goodAnswers(loadRagTruth(path.join(judgeDevDir(), "ragtruth-qa-dev.jsonl")));
  const input = (a: (typeof answers)[number]) => ({ question: a.question, answer: a.response, chunks: a.passages });
  const shared = mod.createHeuristicJudge();
  if (values.warm) for (const a of answers) await judgeGrounding(shared, input(a));
  const us: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const judge = values.warm ? shared : mod.createHeuristicJudge();
    const t0 = process.cpuUsage();
    for (const a of answers) await judgeGrounding(judge, input(a));
    const d = process.cpuUsage(t0);
    us.push((d.user + d.system) / answers.length);
  }
  const sorted = [...us].sort((a, b) => a - b);
  console.log(
    `${root} (${values.warm ? "warm" : "cold"} chunk cache): µs CPU per answer, ${answers.length} answers, rounds ${us.map((x) => x.toFixed(0)).join(" ")}; median ${(sorted[Math.floor(sorted.length / 2)] as number).toFixed(0)}, min ${(sorted[0] as number).toFixed(0)}`,
  );
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exitCode = 2;
});
