import { writeFile } from "node:fs/promises";
import path from "node:path";
import { type Command, InvalidArgumentError, type Option } from "commander";
import { CalibrationError } from "../runs/calibrate/errors.js";
import { readLabelledCases, sampleFromCases } from "../runs/calibrate/fromCases.js";
import { sampleForCalibration } from "../runs/calibrate/sample.js";
import { scoreCalibrationFile } from "../runs/calibrate/score.js";
import { type Io, judgeFor, withStore } from "./context.js";
import { assertWritable, EXIT } from "./evalCommand.js";

function positiveInt(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 100_000) throw new InvalidArgumentError("expected an integer from 1 to 100000");
  return n;
}

const fmt = (x: number | null, digits = 2) => (x === null ? "—" : x.toFixed(digits));
const pct = (x: number | null) => (x === null ? "—" : `${(x * 100).toFixed(1)}%`);

/**
 * `ragmeter calibrate sample`: writes a review file for a person to fill in, from a stored run
 * (`--run`) or from a hand-labelled set judged now by the configured judge (`--cases`, human fields
 * filled in from the labels). Returns the exit code.
 */
async function calibrateSampleCommand(io: Io, flags: { run?: string; cases?: string; n: number; out?: string; seed: number; home?: string }): Promise<number> {
  if ((flags.run === undefined) === (flags.cases === undefined))
    throw new CalibrationError("calibrate sample: give either --run <run_id> or --cases <file> (e.g. bench/judges/cases.jsonl)");
  const out = path.resolve(io.cwd, flags.out ?? (flags.run !== undefined ? `calibration-${flags.run}.json` : "calibration-cases.json"));
  await assertWritable(out, "--out");
  return withStore(io, flags, async (store, config) => {
    let file: Awaited<ReturnType<typeof sampleForCalibration>>;
    if (flags.cases !== undefined) {
      const casesPath = path.resolve(io.cwd, flags.cases);
      file = await sampleFromCases(await readLabelledCases(casesPath), flags.cases, await judgeFor(config), flags.n, flags.seed);
    } else {
      file = await sampleForCalibration(store, flags.run as string, flags.n, flags.seed);
    }
    await writeFile(out, `${JSON.stringify(file, null, 2)}\n`);
    const claims = file.items.reduce((a, i) => a + i.claims.length, 0);
    io.out(
      `review file: ${out}\n${file.items.length} questions, ${claims} claims from ${flags.cases !== undefined ? `the labelled set ${flags.cases}` : `run ${file.run_id}`} (judge ${file.judge.kind} ${file.judge.model}, prompt ${file.judge.prompt_version})`,
    );
    io.out(
      flags.cases !== undefined
        ? "human fields are filled in from the set's labels: run npx ragmeter calibrate score FILE"
        : "fill in human_verdict for each claim and human_relevance for each question, then run: npx ragmeter calibrate score FILE",
    );
    return EXIT.done;
  });
}

/** `ragmeter calibrate score`: agreement and kappas of a filled-in review file, stored in `calibrations`. Returns the exit code. */
async function calibrateScoreCommand(io: Io, file: string, flags: { home?: string }): Promise<number> {
  return withStore(io, flags, async (store) => {
    const { record, score } = await scoreCalibrationFile(store, path.resolve(io.cwd, file));
    io.out(`calibration ${record.calibration_id} · judge ${record.judge_kind} ${record.judge_model} (prompt ${record.judge_prompt_version}) · run ${record.source_run_id}`);
    io.out(`  claim verdicts  agreement ${pct(score.claims.agreement)}  Cohen's κ ${fmt(score.claims.kappa)}  (n=${score.claims.n} claims)`);
    io.out(`  relevance 0–4   agreement ${pct(score.relevance.agreement)}  quadratic-weighted κ ${fmt(score.relevance.kappa)}  (n=${score.relevance.n} questions)`);
    for (const w of score.warnings) io.err(`warning: ${w}`);
    return EXIT.done;
  });
}

/** Registers `calibrate sample` and `calibrate score` on the program. */
export function registerCalibrateCommand(program: Command, io: Io, result: { code: number }, home: () => Option): void {
  const cal = program.command("calibrate").description("check the judge against a person: write a review file, then score the filled-in file");
  cal
    .command("sample")
    .description("write a review file (question, chunks, answer, claims with the judge's verdicts, relevance) for a person to fill in")
    .option("--run <run_id>", "run to sample from")
    .option("--cases <file>", "hand-labelled set to draw from instead (JSON Lines, e.g. bench/judges/cases.jsonl): judged now, human fields from its labels")
    .option("--n <n>", "questions to sample", positiveInt, 20)
    .option("--out <file>", "review file to write (default calibration-<run>.json)")
    .option("--seed <n>", "sampling seed", positiveIntOrZero, 0)
    .addOption(home())
    .action(async (o: { run?: string; cases?: string; n: number; out?: string; seed: number; home?: string }) => {
      result.code = await calibrateSampleCommand(io, o);
    });
  cal
    .command("score")
    .description("agreement and Cohen's kappa (claim verdicts), quadratic-weighted kappa (relevance); stored with the judge model and prompt version")
    .argument("<file>", "filled-in review file")
    .addOption(home())
    .action(async (file: string, o: { home?: string }) => {
      result.code = await calibrateScoreCommand(io, file, o);
    });
}

function positiveIntOrZero(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 2 ** 31 - 1) throw new InvalidArgumentError("expected an integer ≥ 0");
  return n;
}
