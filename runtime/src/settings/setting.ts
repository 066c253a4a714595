/**
 * One settings mechanism for every ragmeter process (issue 30): each setting is declared once
 * (name, zod type with its default, description, the processes that read it, whether it is a secret,
 * the old names still read), each process builds its one schema from the settings it reads, parses
 * it once at its entry and passes the typed result down. Precedence: flag, then environment (the
 * current name, then a deprecated one, with one warning), then default.
 */
import * as z from "zod"; // a namespace import lets a bundler drop what is not used (the collector bundle)
import { RagmeterError } from "../errors.js";

/** The processes that read settings. */
export const PROCESSES = ["cli", "scorer", "collector", "dashboards"] as const;
/** See {@link PROCESSES}: `cli` = the `ragmeter` commands that evaluate (eval, replay, report…), `scorer` = the streaming scorer (`scorer`, `serve`), `dashboards` = the Grafana container the generated provisioning runs in. */
export type Process = (typeof PROCESSES)[number];

/** One setting. */
export interface Setting<T extends z.ZodType = z.ZodType> {
  /** Its environment variable. */
  readonly name: string;
  /** Parses the variable's text (or a flag's value); carries the default (`.default(…)`) or is `.optional()`. */
  readonly type: T;
  readonly description: string;
  /** Who reads it. */
  readonly processes: readonly Process[];
  /** Masked by `ragmeter config`. */
  readonly secret?: boolean;
  /** Old names still read (when the current one is unset), each with a deprecation warning. */
  readonly deprecatedNames?: readonly string[];
  /** What the default is when it is not a constant (e.g. "RAGMETER_RETENTION_DAYS"), for the docs. */
  readonly defaultNote?: string;
}

/** Declares a setting (keeps its zod type for the inferred values). */
export const setting = <T extends z.ZodType>(s: Setting<T>): Setting<T> => s;

/** `true`/`false`, `1`/`0`, `yes`/`no`, `on`/`off` (any case), or a boolean a flag passes. */
export const booleanSetting = z.union(
  [
    z.boolean(),
    z
      .string()
      .trim()
      .toLowerCase()
      .refine((s) => ["1", "0", "true", "false", "yes", "no", "on", "off"].includes(s), "must be true or false (or 1/0, yes/no, on/off)")
      .transform((s) => ["1", "true", "yes", "on"].includes(s)),
  ],
  { error: "must be true or false (or 1/0, yes/no, on/off)" },
);

/** Where an effective value came from. */
export type SettingSource =
  | { readonly kind: "default" }
  | { readonly kind: "environment"; readonly variable: string; readonly deprecated: boolean }
  | { readonly kind: "flag"; readonly flag: string };

/** A flag's value standing in for a setting, and the flag's name (`--brokers`). */
export interface FlagValue {
  readonly value: unknown;
  readonly flag: string;
}

/** The resolved settings: value and source of each, by variable name, and the warnings to print once. */
export interface ResolvedSettings {
  readonly values: Readonly<Record<string, unknown>>;
  readonly sources: Readonly<Record<string, SettingSource>>;
  readonly warnings: readonly string[];
}

/** Invalid settings: one line per bad value, naming the variable or flag it came from. */
export class SettingsError extends RagmeterError {
  override readonly name = "SettingsError";
  readonly lines: readonly string[];
  constructor(lines: readonly string[]) {
    super(lines.join("; "), { code: "config" });
    this.lines = lines;
  }
}

/** How a source is named in an error line or by `ragmeter config`. */
export function describeSource(s: SettingSource): string {
  if (s.kind === "default") return "default";
  if (s.kind === "flag") return `flag ${s.flag}`;
  return `environment variable ${s.variable}`;
}

/** The one deprecation warning of an old name. */
export const deprecationWarning = (old: string, current: string): string => `warning: ${old} is deprecated, use ${current} (read this time)`;

/** The settings `process` reads, from `all`. */
export const settingsOf = (all: readonly Setting[], process: Process): Setting[] => all.filter((s) => s.processes.includes(process));

/** One zod object schema over `settings`, keyed by variable name (what a process parses once). */
export function schemaOf<const S extends readonly Setting[]>(settings: S): z.ZodObject<{ [K in S[number] as K["name"]]: K["type"] }> {
  return z.object(Object.fromEntries(settings.map((s) => [s.name, s.type]))) as never;
}

/**
 * The raw text of each setting in `env` (empty counts as unset), an old name standing in for an
 * unset current one, with the source of each.
 */
export function rawSettings(
  settings: readonly Setting[],
  env: Readonly<Record<string, string | undefined>>,
  flags: Readonly<Record<string, FlagValue | undefined>> = {},
): { raw: Record<string, unknown>; sources: Record<string, SettingSource>; warnings: string[] } {
  const raw: Record<string, unknown> = {};
  const sources: Record<string, SettingSource> = {};
  const warnings: string[] = [];
  for (const s of settings) {
    const flag = flags[s.name];
    if (flag !== undefined && flag.value !== undefined) {
      raw[s.name] = flag.value;
      sources[s.name] = { kind: "flag", flag: flag.flag };
      continue;
    }
    const v = env[s.name];
    if (v !== undefined && v !== "") {
      raw[s.name] = v;
      sources[s.name] = { kind: "environment", variable: s.name, deprecated: false };
      continue;
    }
    const old = (s.deprecatedNames ?? []).find((n) => env[n] !== undefined && env[n] !== "");
    if (old !== undefined) {
      raw[s.name] = env[old];
      sources[s.name] = { kind: "environment", variable: old, deprecated: true };
      warnings.push(deprecationWarning(old, s.name));
      continue;
    }
    sources[s.name] = { kind: "default" };
  }
  return { raw, sources, warnings };
}

/**
 * Parses `settings` once: flag, then environment, then default.
 * @throws SettingsError with one line per invalid value, naming its variable (or flag)
 */
export function resolveSettings(
  settings: readonly Setting[],
  env: Readonly<Record<string, string | undefined>>,
  flags: Readonly<Record<string, FlagValue | undefined>> = {},
): ResolvedSettings {
  const { raw, sources, warnings } = rawSettings(settings, env, flags);
  const r = schemaOf(settings).safeParse(raw);
  if (!r.success) {
    throw new SettingsError(
      r.error.issues.map((i) => {
        const name = String(i.path[0] ?? "");
        const src = sources[name];
        return `${src === undefined ? name : src.kind === "default" ? `default of ${name}` : describeSource(src)}: ${i.message}`;
      }),
    );
  }
  return { values: r.data as Record<string, unknown>, sources, warnings };
}

/** The default of `s` (what its type gives for an unset variable), undefined when it has none. */
export function defaultOf(s: Setting): unknown {
  const r = s.type.safeParse(undefined);
  return r.success ? r.data : undefined;
}

/**
 * One setting read from `env` (empty counts as unset) and parsed with its type, for a value a
 * process reads on its own rather than in its schema (a token sent to its read API, a debug switch).
 * @throws SettingsError naming the variable when its value is invalid
 */
export function readSetting<T extends z.ZodType>(s: Setting<T>, env: Readonly<Record<string, string | undefined>>): z.output<T> {
  return resolveSettings([s], env).values[s.name] as z.output<T>;
}
