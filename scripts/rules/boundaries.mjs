// Text checks dependency-cruiser cannot make (design §8, "Boundaries"), run by scripts/rules.mjs:
//   sql-only-in-store   a ClickHouse statement (a string literal holding SELECT … FROM, INSERT INTO,
//                       ALTER/CREATE/DROP/OPTIMIZE/TRUNCATE TABLE …) in shipped code lives under
//                       store/src, except the files named in SQL_EXCEPTIONS with their reason
//   browser-driver-lazy scorer/src/cli/format/browser.ts imports playwright-core statically only as
//                       `import type` (erased), the driver itself by import() when report --png runs
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** Shipped source folders (tests, bench and scripts may hold SQL: they check the store). */
const SHIPPED = [
  "otlp/src",
  "kafka/src",
  "runtime/src",
  "collector/src",
  "instrumentation/src",
  "golden/src",
  "core/src",
  "store/src",
  "stream/src",
  "scorer/src",
  "dashboards/src",
  "examples/sample-rag/src",
];
const STORE = "store/src/";
/** Files outside the store allowed to hold SQL, each with its reason. */
export const SQL_EXCEPTIONS = {
  "dashboards/src/sql.ts": "the Grafana panels' queries: Grafana runs them against ClickHouse, ragmeter never does",
};
const SQL = /["'`][^"'`]*?\b(SELECT\b[^"'`]*?\bFROM|INSERT\s+INTO|(ALTER|CREATE|DROP|OPTIMIZE|TRUNCATE)\s+TABLE)\b/u;
const BROWSER = "scorer/src/cli/format/browser.ts";

function* tsFiles(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* tsFiles(p);
    else if (e.name.endsWith(".ts") && !e.name.endsWith(".d.ts")) yield p;
  }
}

/** The violations under `root`, one line each naming its rule, file and line. */
export function boundaryViolations(root) {
  const out = [];
  for (const dir of SHIPPED) {
    let files;
    try {
      files = [...tsFiles(path.join(root, dir))];
    } catch {
      continue; // a workspace without src
    }
    for (const file of files) {
      const rel = path.relative(root, file).split(path.sep).join("/");
      if (rel.startsWith(STORE) || rel in SQL_EXCEPTIONS) continue;
      readFileSync(file, "utf8")
        .split("\n")
        .forEach((line, i) => {
          if (!line.trimStart().startsWith("//") && !line.trimStart().startsWith("*") && SQL.test(line))
            out.push(`sql-only-in-store: ${rel}:${i + 1} holds a SQL statement; move it into ${STORE}`);
        });
    }
  }
  const browser = readFileSync(path.join(root, BROWSER), "utf8");
  for (const m of browser.matchAll(/^import\s+(?!type\s)[^;]*from\s+"playwright-core"/gmu))
    out.push(`browser-driver-lazy: ${BROWSER} imports playwright-core statically (${m[0].slice(0, 60)}…); load it with import()`);
  return out;
}
