/**
 * What `ragmeter config` prints and docs/configuration.md holds, rendered from the settings
 * themselves (so neither can drift from what the processes parse).
 */
import { ALL_SETTINGS } from "./catalog.js";
import { defaultOf, describeSource, PROCESSES, type ResolvedSettings, type Setting } from "./setting.js";

/** A value as text: unset, a string as is, anything else as JSON. */
const text = (v: unknown): string => (v === undefined ? "unset" : typeof v === "string" ? v : JSON.stringify(v));

/** Shown in place of a secret's value. */
export const MASK = "****";

/** One effective setting as `ragmeter config` reports it. */
export interface EffectiveSetting {
  readonly name: string;
  /** The parsed value (a secret's masked, when set); null when unset. */
  readonly value: unknown;
  /** `default`, `environment variable X` or `flag --x`. */
  readonly source: string;
}

/** The effective settings of `resolved`, secrets masked. */
export function effectiveSettings(settings: readonly Setting[], resolved: ResolvedSettings): EffectiveSetting[] {
  return settings.map((s) => {
    const v = resolved.values[s.name];
    const src = resolved.sources[s.name];
    return { name: s.name, value: v === undefined ? null : s.secret === true ? MASK : v, source: src === undefined ? "default" : describeSource(src) };
  });
}

/** `NAME=value  (source)` per line, aligned. */
export function formatEffectiveSettings(rows: readonly EffectiveSetting[]): string {
  const width = Math.max(...rows.map((r) => r.name.length + 1 + text(r.value ?? undefined).length));
  return rows.map((r) => `${`${r.name}=${text(r.value ?? undefined)}`.padEnd(width)}  (${r.source})`).join("\n");
}

const cell = (s: string): string => s.replace(/\|/gu, "\\|");

/** The default of `s` for the docs. */
function documentedDefault(s: Setting): string {
  if (s.defaultNote !== undefined) return s.defaultNote;
  const d = defaultOf(s);
  return d === undefined ? "unset" : `\`${text(d)}\``;
}

/** docs/configuration.md (generated: `npm run docs:config`). */
export function renderConfigurationDoc(settings: readonly Setting[] = ALL_SETTINGS): string {
  const lines = [
    "# Configuration",
    "",
    "<!-- Generated from runtime/src/settings/catalog.ts by `npm run docs:config`; do not edit by hand (tests/unit/settings.unit.test.ts fails when it is stale). -->",
    "",
    "Every setting is declared once (`@ragmeter/runtime`'s settings catalog: name, zod type, default,",
    "meaning, the processes that read it). Each process parses the settings it reads once, at its",
    "start: flag, then environment, then default. An invalid value stops it with exit 2 and one line",
    "naming the variable (or flag) it came from. A deprecated name is still read, with one warning.",
    "`ragmeter config` prints the effective settings and where each came from (`--json` too; secrets",
    "masked).",
    "",
    "Processes: `cli` (the `ragmeter` commands that evaluate, report and read the store), `scorer`",
    "(the streaming scorer: `ragmeter scorer`, `ragmeter serve`), `collector`, `dashboards` (the",
    "Grafana container running the generated provisioning).",
    "",
    "| variable | default | read by | meaning |",
    "| --- | --- | --- | --- |",
  ];
  for (const s of settings) {
    const old = s.deprecatedNames?.length ? ` Deprecated name, still read with a warning: ${s.deprecatedNames.map((n) => `\`${n}\``).join(", ")}.` : "";
    const secret = s.secret === true ? " Secret: masked by `ragmeter config`." : "";
    lines.push(`| \`${s.name}\` | ${cell(documentedDefault(s))} | ${PROCESSES.filter((p) => s.processes.includes(p)).join(", ")} | ${cell(s.description)}.${old}${secret} |`);
  }
  lines.push(
    "",
    "Not in the table (not ragmeter's settings, or not read by its processes):",
    "",
    "- the standard OpenTelemetry SDK variables (`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_SERVICE_NAME`,",
    "  `OTEL_RESOURCE_ATTRIBUTES`, `OTEL_BSP_*`; `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT`,",
    "  default `false`, captures question, chunks and answer on spans);",
    "- with `RAGMETER_EVALUATION_EXPORT_ENDPOINT` set, the evaluation export reads",
    "  `OTEL_EXPORTER_OTLP_LOGS_HEADERS` (else `OTEL_EXPORTER_OTLP_HEADERS`; `k=v,…`, percent-encoded",
    "  values) and `OTEL_EXPORTER_OTLP_LOGS_TIMEOUT` (else `OTEL_EXPORTER_OTLP_TIMEOUT`; 10000 ms), see",
    "  [Evaluation results back into OpenTelemetry](scorer.md#evaluation-results-back-into-opentelemetry);",
    "- the sample pipeline's `RAGMETER_SAMPLE_VERSION` (`v1`), `PORT` (`8080`) and `HOST`;",
    "- those of the scripts, benchmarks and tests (docs/design.md §12).",
    "",
    "Secured brokers: [TLS and SASL](kafka.md#secured-brokers-tls-and-sasl); retention:",
    "[Storage](storage.md#storage).",
    "",
  );
  return lines.join("\n");
}
