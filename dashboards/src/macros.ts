/**
 * Expands a panel's SQL the way Grafana and grafana-clickhouse-datasource do before it reaches
 * ClickHouse, so tests can run the exact text a dashboard sends:
 *
 * 1. `$__conditionalAll(condition, $var)` (plugin frontend, `applyConditionalAll`): replaced by `1=1`
 *    when the variable's current value is "All" (`$__all`) or empty, else by the condition.
 * 2. Template variables (Grafana's templateSrv with the plugin's `format`): `${var:singlequote}` →
 *    `'a','b'` (each value quoted, `'` escaped as `\'`); `${var}` / `$var` → an array value as
 *    `'a','b'` (the plugin's default format), a single value as is.
 * 3. Backend macros (plugin `pkg/macros`): `$__timeFilter(col)` → `col >= toDateTime(from) AND col <=
 *    toDateTime(to)` (seconds), `$__timeFilter_ms(col)` with `fromUnixTimestamp64Milli(ms)`,
 *    `$__fromTime`, `$__toTime` (`toDateTime(s)`), `$__fromTime_ms`, `$__toTime_ms`,
 *    `$__timeInterval(col)` → `toStartOfInterval(toDateTime(col), INTERVAL n second)` with
 *    n = max(interval seconds, 1), `$__timeInterval_ms(col)`, `$__interval_s` → n.
 */

/** A variable's current value: one string, several, or "All". */
export type VariableValue = string | readonly string[] | { readonly all: true; readonly values: readonly string[] };

/** What a dashboard sends with a query. */
export interface QueryContext {
  /** Time range, ms since the epoch (UTC). */
  readonly from: number;
  readonly to: number;
  /** Panel interval, ms (Grafana's `$__interval_ms`). */
  readonly intervalMs: number;
  /** Current values of the template variables. */
  readonly variables: Readonly<Record<string, VariableValue>>;
}

function isAll(v: VariableValue): v is { all: true; values: readonly string[] } {
  return typeof v === "object" && !Array.isArray(v) && (v as { all?: unknown }).all === true;
}

function values(v: VariableValue): readonly string[] {
  if (isAll(v)) return v.values;
  return typeof v === "string" ? [v] : (v as readonly string[]);
}

/** Arguments of a macro call starting at `open` (the index of its "("): split on top-level commas. */
function macroArgs(text: string, open: number): { args: string[]; end: number } | null {
  let depth = 0;
  let last = open + 1;
  const args: string[] = [];
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === "(") depth++;
    else if (c === ")") {
      depth--;
      if (depth === 0) {
        args.push(text.slice(last, i));
        return { args, end: i + 1 };
      }
    } else if (c === "," && depth === 1) {
      args.push(text.slice(last, i));
      last = i + 1;
    }
  }
  return null;
}

/** Step 1: `$__conditionalAll(condition, $var)`. */
export function applyConditionalAll(sql: string, variables: QueryContext["variables"]): string {
  const macro = "$__conditionalAll(";
  let out = sql;
  let at = out.lastIndexOf(macro);
  while (at !== -1) {
    const call = macroArgs(out, at + macro.length - 1);
    if (call?.args.length !== 2) throw new Error(`$__conditionalAll at ${at} needs 2 arguments`);
    const [condition = "", ref = ""] = call.args;
    const name = /\$\{(\w+)\}|\$(\w+)/u.exec(ref.trim());
    const v = name ? variables[name[1] ?? name[2] ?? ""] : undefined;
    const all = v === undefined ? false : isAll(v) || values(v).length === 0 || (typeof v === "string" && v === "");
    out = out.slice(0, at) + (all ? "1=1" : condition) + out.slice(call.end);
    at = out.lastIndexOf(macro);
  }
  return out;
}

/** Step 2: Grafana template variables with the plugin's default format. */
export function applyVariables(sql: string, variables: QueryContext["variables"]): string {
  return sql.replace(/\$\{(\w+)(?::(\w+))?\}|\$(\w+)/gu, (whole, braced: string | undefined, fmt: string | undefined, bare: string | undefined) => {
    const name = braced ?? bare ?? "";
    if (name.startsWith("__")) return whole; // macros and Grafana globals are not template variables
    const v = variables[name];
    if (v === undefined) throw new Error(`unknown template variable ${whole}`);
    const vs = values(v);
    if (fmt === "singlequote") return vs.map((x) => `'${x.replace(/'/gu, "\\'")}'`).join(",");
    if (fmt !== undefined) throw new Error(`unsupported variable format ${fmt}`);
    return typeof v === "string" ? v : `'${vs.join("','")}'`;
  });
}

/** Step 3: the plugin's backend macros. */
export function applyMacros(sql: string, ctx: Pick<QueryContext, "from" | "to" | "intervalMs">): string {
  const fromS = Math.floor(ctx.from / 1000);
  const toS = Math.floor(ctx.to / 1000);
  const seconds = Math.max(Math.floor(ctx.intervalMs / 1000), 1);
  const ms = Math.max(Math.floor(ctx.intervalMs), 1);
  const withArg: Record<string, (col: string) => string> = {
    timeFilter_ms: (c) => `${c} >= fromUnixTimestamp64Milli(${ctx.from}) AND ${c} <= fromUnixTimestamp64Milli(${ctx.to})`,
    timeFilter: (c) => `${c} >= toDateTime(${fromS}) AND ${c} <= toDateTime(${toS})`,
    timeInterval_ms: (c) => `toStartOfInterval(toDateTime64(${c}, 3), INTERVAL ${ms} millisecond)`,
    timeInterval: (c) => `toStartOfInterval(toDateTime(${c}), INTERVAL ${seconds} second)`,
  };
  const bare: Record<string, string> = {
    fromTime_ms: `fromUnixTimestamp64Milli(${ctx.from})`,
    toTime_ms: `fromUnixTimestamp64Milli(${ctx.to})`,
    fromTime: `toDateTime(${fromS})`,
    toTime: `toDateTime(${toS})`,
    interval_s: String(seconds),
  };
  let out = sql;
  for (const [name, f] of Object.entries(withArg)) {
    const token = `$__${name}(`;
    let at = out.indexOf(token);
    while (at !== -1) {
      const call = macroArgs(out, at + token.length - 1);
      if (call?.args.length !== 1) throw new Error(`$__${name} expects 1 argument`);
      out = out.slice(0, at) + f((call.args[0] ?? "").trim()) + out.slice(call.end);
      at = out.indexOf(token);
    }
  }
  for (const [name, text] of Object.entries(bare)) out = out.replace(new RegExp(`\\$__${name}(?![A-Za-z0-9_])`, "gu"), text);
  const left = /\$__\w+/u.exec(out);
  if (left) throw new Error(`unexpanded macro ${left[0]}`);
  return out;
}

/**
 * The SQL ClickHouse receives for a panel query: conditional-All, template variables, then the
 * plugin's macros.
 * @throws Error naming an unknown variable, an unsupported format or a macro left unexpanded.
 */
export function expandPanelSql(sql: string, ctx: QueryContext): string {
  return applyMacros(applyVariables(applyConditionalAll(sql, ctx.variables), ctx.variables), ctx);
}
