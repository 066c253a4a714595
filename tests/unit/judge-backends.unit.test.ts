import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createJudge, judgeKindMetered, judgeLabel, unmeteredSummary } from "../../core/src/judges/backends.js";

const root = path.resolve(import.meta.dirname, "../..");

/** Every .ts file under `dir` (relative to the repository). */
function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .map((f) => path.join(dir, f));
}

describe("judge backends (issue 36: a judge backend is one interface)", () => {
  it("builds the heuristic judge without an endpoint and the LLM judge with one; each says whether it is metered", async () => {
    const heuristic = await createJudge({ llm: null });
    expect([heuristic.kind, heuristic.model, heuristic.metered]).toEqual(["heuristic", "heuristic", false]);
    const llm = await createJudge({ llm: { baseURL: "http://127.0.0.1:9/v1", model: "m-1" } });
    expect([llm.kind, llm.model, llm.metered]).toEqual(["llm", "m-1", true]);
  });

  it("knows stored kinds without building them; an unknown kind is taken as metered", () => {
    expect(judgeKindMetered("heuristic")).toBe(false);
    expect(judgeKindMetered("llm")).toBe(true);
    expect(judgeKindMetered("some-future-backend")).toBe(true);
    expect(unmeteredSummary("heuristic")).toBe("heuristic rules, no LLM calls");
    expect(unmeteredSummary("llm")).toBeUndefined();
    expect(judgeLabel("heuristic", "heuristic")).toBe("heuristic");
    expect(judgeLabel("llm", "gpt-4o-mini")).toBe("llm gpt-4o-mini");
  });

  it("no source outside the registry and the backends' own folders branches on a judge's kind", () => {
    const allowed = /^scorer\/src\/judges\/(backends\.ts|heuristic\/|llm\/)/u;
    const branch = /(kind|judge_kind)\s*[!=]==?\s*["'](llm|heuristic)["']|["'](llm|heuristic)["']\s*[!=]==?\s*\S*kind/u;
    const offenders = ["scorer/src", "dashboards/src", "collector/src"]
      .flatMap(sources)
      .filter((f) => !allowed.test(f))
      .filter((f) => branch.test(readFileSync(path.join(root, f), "utf8")));
    expect(offenders).toEqual([]);
    // dashboards' SQL does not name a backend either
    const sql = sources("dashboards/src").filter((f) => /judge_kind\s*(=|IN)\s*\(?'(llm|heuristic)'/u.test(readFileSync(path.join(root, f), "utf8")));
    expect(sql).toEqual([]);
  });
});
