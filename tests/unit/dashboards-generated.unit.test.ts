// The committed provisioning under dashboards/ is exactly what `npm run dashboards:build` writes,
// and the dashboards reference the provisioned datasource, the variables and the checked SQL.
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { DASHBOARDS, DATASOURCE, PANEL_SQL, renderAll } from "../../dashboards/src/index.js";
import { applyConditionalAll, applyMacros, applyVariables } from "../../dashboards/src/macros.js";

const root = path.resolve(import.meta.dirname, "../../dashboards");

describe("generated Grafana provisioning", () => {
  it("is up to date (run `npm run dashboards:build` after changing dashboards/src)", () => {
    const files = renderAll();
    for (const [rel, content] of files) expect(readFileSync(path.join(root, rel), "utf8"), `${rel} is stale`).toBe(content);
    const onDisk = readdirSync(path.join(root, "json")).map((f) => `json/${f}`);
    expect(onDisk.sort()).toEqual([...files.keys()].filter((k) => k.startsWith("json/")).sort());
  });

  it("every panel queries the provisioned ClickHouse datasource with its checked SQL", () => {
    const sqls = new Set(Object.values(PANEL_SQL));
    for (const spec of DASHBOARDS) {
      const d = JSON.parse(readFileSync(path.join(root, "json", `${spec.uid}.json`), "utf8")) as {
        uid: string;
        panels: { type: string; title: string; targets: { datasource: { uid: string; type: string }; rawSql: string; editorType: string }[]; gridPos: { w: number; h: number } }[];
        templating: { list: { name: string }[] };
      };
      expect(d.uid).toBe(spec.uid);
      expect(d.templating.list.map((v) => v.name)).toEqual(["k", "pipeline_version", "golden_set", "source", "service"]);
      expect(d.panels).toHaveLength(spec.panels.length);
      for (const p of d.panels) {
        expect(p.targets).toHaveLength(1);
        const t = p.targets[0]!;
        expect(t.datasource).toEqual(DATASOURCE);
        expect(t.editorType).toBe("sql");
        expect(sqls.has(t.rawSql as never), `${spec.uid} / ${p.title}`).toBe(true);
        expect(p.gridPos.w).toBeGreaterThan(0);
      }
    }
  });

  it("provisioning YAML: datasource from the environment, provider path", () => {
    const ds = parse(readFileSync(path.join(root, "provisioning/datasources/clickhouse.yaml"), "utf8")) as { datasources: { type: string; uid: string; jsonData: Record<string, string>; secureJsonData: Record<string, string> }[] };
    const d = ds.datasources[0]!;
    expect(d.type).toBe("grafana-clickhouse-datasource");
    expect(d.uid).toBe(DATASOURCE.uid);
    expect(d.jsonData["defaultDatabase"]).toBe("${CLICKHOUSE_DATABASE}");
    expect(d.jsonData["username"]).toBe("${CLICKHOUSE_USER}");
    expect(d.secureJsonData["password"]).toBe("${CLICKHOUSE_PASSWORD}");
    const pv = parse(readFileSync(path.join(root, "provisioning/dashboards/ragmeter.yaml"), "utf8")) as { providers: { type: string; options: { path: string } }[] };
    expect(pv.providers[0]!.options.path).toBe("/var/lib/grafana/dashboards/ragmeter");
  });
});

describe("macro expansion (as grafana-clickhouse-datasource)", () => {
  const range = { from: Date.UTC(2026, 0, 1), to: Date.UTC(2026, 0, 2, 0, 0, 0, 500), intervalMs: 60_000 };
  it("backend macros", () => {
    expect(applyMacros("WHERE $__timeFilter(created_at) AND $__timeFilter_ms(t)", range)).toBe(
      "WHERE created_at >= toDateTime(1767225600) AND created_at <= toDateTime(1767312000) AND t >= fromUnixTimestamp64Milli(1767225600000) AND t <= fromUnixTimestamp64Milli(1767312000500)",
    );
    expect(applyMacros("$__timeInterval(ts) $__interval_s $__fromTime $__toTime $__fromTime_ms", range)).toBe(
      "toStartOfInterval(toDateTime(ts), INTERVAL 60 second) 60 toDateTime(1767225600) toDateTime(1767312000) fromUnixTimestamp64Milli(1767225600000)",
    );
    expect(applyMacros("$__interval_s", { ...range, intervalMs: 10 })).toBe("1");
    expect(() => applyMacros("$__unknown", range)).toThrow(/unexpanded macro/u);
  });
  it("template variables and conditional All", () => {
    const vars = { pv: ["a", "b'c"], one: "x", all: { all: true, values: ["p", "q"] } as const };
    expect(applyVariables("IN (${pv:singlequote}) $one ${all} $pv", vars)).toBe("IN ('a','b\\'c') x 'p','q' 'a','b'c'");
    expect(applyConditionalAll("WHERE $__conditionalAll(v IN (${all:singlequote}), $all) AND $__conditionalAll(w IN (${pv:singlequote}), $pv)", vars)).toBe("WHERE 1=1 AND w IN (${pv:singlequote})");
    expect(() => applyVariables("$nope", vars)).toThrow(/unknown template variable/u);
  });
});
