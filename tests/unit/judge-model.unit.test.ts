import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { goodAnswers, judgeDevDir, loadRagTruth } from "../../bench/judges/ragtruth.js";
import { rowsDigest, train, trainingRows } from "../../bench/judges/train.js";
import { FEATURE_NAMES } from "../../core/src/judges/heuristic/features.js";
import { createHeuristicJudge, heuristicPromptVersion } from "../../core/src/judges/heuristic/heuristicJudge.js";
import { committedGroundingModel, type GroundingModel, parseGroundingModel } from "../../core/src/judges/heuristic/model.js";

// The committed grounding model (core/src/judges/heuristic/grounding-model.json, issue 27): it
// parses, a tampered copy is refused naming the field, it is what bench/judges/train.ts reproduces
// from the development data (when that data is here), and the judge's prompt version follows it.
const MODEL_PATH = path.resolve(import.meta.dirname, "../../core/src/judges/heuristic/grounding-model.json");
const committedJson = (): Record<string, unknown> => JSON.parse(readFileSync(MODEL_PATH, "utf8")) as Record<string, unknown>;

describe("the committed grounding model file", () => {
  it("parses, with one mean, scale and weight per feature, in the judge's feature order", () => {
    const m = committedGroundingModel();
    expect(m.features).toEqual([...FEATURE_NAMES]);
    expect([m.mean.length, m.scale.length, m.weights.length]).toEqual([FEATURE_NAMES.length, FEATURE_NAMES.length, FEATURE_NAMES.length]);
    expect(m.threshold).toBeGreaterThan(m.rule_penalty);
  });

  it("a tampered copy is refused with an error naming the field", () => {
    const bad = (patch: Record<string, unknown>): (() => GroundingModel) => {
      const raw = { ...committedJson(), ...patch };
      return () => parseGroundingModel(raw, "tampered.json");
    };
    const m = committedJson() as { weights: number[]; features: string[]; scale: number[] };
    expect(bad({ weights: m.weights.slice(1) })).toThrow(/tampered\.json: grounding model .*weights must have one entry per feature/u);
    expect(bad({ features: [...m.features.slice(0, -1), "vibes"] })).toThrow(new RegExp(`tampered\\.json: grounding model features\\.${m.features.length - 1}: `, "u"));
    expect(bad({ scale: [0, ...m.scale.slice(1)] })).toThrow(/grounding model scale\.0: /u);
    expect(bad({ threshold: 1.5 })).toThrow(/grounding model threshold: /u);
    expect(bad({ training_sha256: "abc" })).toThrow(/grounding model training_sha256: /u);
    expect(bad({ format: 2 })).toThrow(/grounding model format: /u);
  });
});

const devFile = path.join(judgeDevDir(), "ragtruth-qa-dev.jsonl");
const devMissing = !existsSync(devFile);
if (devMissing) {
  console.warn(
    `[judge-model] SKIPPED the freshness check: ${devFile} is missing (the RAGTruth QA development data; set RAGMETER_JUDGE_DEV to the folder holding ragtruth-qa-dev.jsonl)`,
  );
}

describe.skipIf(devMissing)("freshness: the committed model is what train.ts reproduces from the development data", () => {
  it("the training rows hash to the committed training_sha256, and train() reproduces the committed file", () => {
    const answers = goodAnswers(loadRagTruth(devFile));
    const committed = committedJson();
    expect(rowsDigest(trainingRows(answers))).toBe(committed["training_sha256"]);
    // what `npm run judge:train -- --check` compares: the file against the script's output after a JSON round trip
    const model = train(answers, "../shared/judge-dev/ragtruth-qa-dev.jsonl, quality good");
    expect(JSON.parse(JSON.stringify(model))).toEqual(committed);
  });
});

describe("the heuristic judge's prompt version follows the model", () => {
  const base = committedGroundingModel();
  const version = (m: GroundingModel): string => createHeuristicJudge(m).promptVersion["grounding"] ?? "";
  it("is the same for an equal copy and for the default judge", () => {
    expect(version(structuredClone(base))).toBe(version(base));
    expect(createHeuristicJudge().promptVersion["grounding"]).toBe(heuristicPromptVersion(base));
    expect(createHeuristicJudge().promptVersion["relevance"]).toBe(createHeuristicJudge().promptVersion["grounding"]);
  });
  it("changes when a weight, the intercept, a scaling value or the threshold changes", () => {
    const v0 = version(base);
    const changed: GroundingModel[] = [
      { ...base, weights: base.weights.map((w, i) => (i === 2 ? w + 1e-6 : w)) },
      { ...base, intercept: base.intercept + 0.01 },
      { ...base, mean: base.mean.map((v, i) => (i === 0 ? v + 0.01 : v)) },
      { ...base, threshold: base.threshold - 0.01 },
      { ...base, rule_penalty: 0.4 },
    ];
    const versions = changed.map(version);
    for (const v of versions) expect(v).not.toBe(v0);
    expect(new Set(versions).size).toBe(versions.length);
  });
});
