/**
 * Renders every provisioning file (dashboards JSON, datasource, provider and alerting YAML, the
 * ClickHouse custom-settings config the alert thresholds need) and, when run as
 * a script (`npm run dashboards:build`), writes them under `dashboards/`.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type MetricTable, metricTable } from "@ragmeter/core/metrics";
import { alertSpecs, alertsYaml, clickhouseCustomSettingsXml } from "./alerts.js";
import { buildDashboard, DASHBOARDS } from "./dashboards.js";
import { datasourceYaml, providerYaml } from "./provisioning.js";

/** The generated files: path relative to `dashboards/` → content; the metrics from `table` (the scorer's by default). */
export function renderAll(table: MetricTable = metricTable): Map<string, string> {
  const files = new Map<string, string>();
  for (const spec of DASHBOARDS) files.set(`json/${spec.uid}.json`, `${JSON.stringify(buildDashboard(spec, table), null, 2)}\n`);
  files.set("provisioning/datasources/clickhouse.yaml", datasourceYaml());
  files.set("provisioning/dashboards/ragmeter.yaml", providerYaml());
  files.set("provisioning/alerting/ragmeter-alerts.yaml", alertsYaml(alertSpecs(table)));
  files.set("clickhouse/ragmeter-custom-settings.xml", clickhouseCustomSettingsXml());
  return files;
}

/** Writes {@link renderAll} under `root` (the `dashboards/` folder); returns the paths written. */
export function writeAll(root: string): string[] {
  const written: string[] = [];
  for (const [rel, content] of renderAll()) {
    const file = path.join(root, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
    written.push(file);
  }
  return written;
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  for (const f of writeAll(root)) process.stdout.write(`wrote ${path.relative(process.cwd(), f)}\n`);
}
