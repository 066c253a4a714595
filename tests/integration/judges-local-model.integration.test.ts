// Issue 13: the product's LLM judges with a real model in the loop — llama.cpp's llama-server with
// SmolLM2-135M (scripts/local-model) — on three short cases of the shipped set (one per language),
// through bench/judges/local-model.mjs (the `bench:judges:local` runner) and the real `openai` client.
// A 135M model judges badly; what is asserted is that every reply ends as a value or a status with a
// reason, and that every call's output is bounded.
//
// Runs when the build and the model are already in the user's cache (no network, no build), or with
// RAGMETER_LOCAL_MODEL=1 (installs first: a build of many minutes); RAGMETER_LOCAL_MODEL=0 skips it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { judgeCases, loadCases, pickCases } from "../../bench/judges/local-model.mjs";
import { type LocalModelServer, localModelInstalled, startLocalModel, stopLocalModel } from "../../scripts/local-model/local-model.mjs";

const flag = process.env["RAGMETER_LOCAL_MODEL"];
const enabled = flag === "1" || (flag !== "0" && localModelInstalled());
if (!enabled) {
  console.log(
    flag === "0"
      ? "judges-local-model integration test skipped: RAGMETER_LOCAL_MODEL=0"
      : "judges-local-model integration test skipped: llama-server and the model are not in the user's cache " +
          "(run `node scripts/local-model/local-model.mjs install`, or set RAGMETER_LOCAL_MODEL=1 to install here)",
  );
}

const MAX_OUTPUT = 256;
let server: LocalModelServer;

describe.skipIf(!enabled)("LLM judges against the real local model server", () => {
  beforeAll(async () => {
    server = await startLocalModel({ install: flag === "1" });
  }, 3_600_000);
  afterAll(async () => {
    if (server?.status === "started") await stopLocalModel();
  });

  it("three cases (en, ru, zh): each judgment a value or a status with a reason; output bounded on every call", async () => {
    const cases = pickCases(loadCases(), 3);
    expect(cases.map((c) => c.language)).toEqual(["en", "ru", "zh"]);
    const { rows, summary } = await judgeCases(cases, { baseURL: server.baseURL, model: server.model, timeoutMs: 60_000, maxOutputTokens: MAX_OUTPUT, contextTokens: server.ctx });
    console.log(JSON.stringify(summary));
    expect(summary.crashes).toBe(0);
    // the model really answered: replies came back (a server gone would give connection errors only)
    expect(rows.reduce((n, r) => n + r.grounding!.output_tokens + r.relevance!.output_tokens, 0)).toBeGreaterThan(0);
    for (const r of rows) {
      for (const j of [r.grounding!, r.relevance!]) {
        expect(["ok", "no_claims", "judge_error", "context_too_long"]).toContain(j.status);
        if (j.status === "ok") expect(j.value).not.toBeNull();
        else {
          expect(j.value).toBeNull();
          if (j.status !== "no_claims") expect(j.reason ?? "").not.toBe("");
        }
        // every HTTP request carried a bound of at most MAX_OUTPUT tokens
        expect(j.output_tokens).toBeLessThanOrEqual(j.calls * MAX_OUTPUT);
      }
      const g = r.grounding!;
      // a grounding value is SUPPORTED / claims of the verdicts it stored, never a value without claims
      if (g.status === "ok") expect(g.value).toBe(g.claims.filter((v) => v === "SUPPORTED").length / g.claims.length);
      if (r.relevance!.status === "ok") expect([0, 1, 2, 3, 4]).toContain(r.relevance!.value);
    }
  }, 900_000);
});
