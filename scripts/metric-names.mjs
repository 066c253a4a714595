#!/usr/bin/env node
// Prints, for each metric name of the table, how many shipped source files of the scorer's
// side (core, store, stream, the CLI) and dashboards/src name it (issue 30's done-when figure: at most 3 each — the table entry, its
// function, a prompt where it has one). "word": the name as a whole word anywhere (identifiers,
// strings, comments); "literal": the name inside quotes or a template string, in code (comments
// left out).
// Usage: node scripts/metric-names.mjs [--files]   (from the repository root)
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const NAMES = ["recall", "precision", "ndcg", "mrr", "grounding", "grounding_risk", "relevance", "context_relevance", "key_facts", "abstention", "reference_facts"];
// every workspace's shipped sources (issue 36: "across all packages except tests")
const ROOTS = [
  "runtime/src",
  "tuning/src",
  "otlp/src",
  "kafka/src",
  "golden/src",
  "instrumentation/src",
  "collector/src",
  "core/src",
  "store/src",
  "stream/src",
  "scorer/src",
  "dashboards/src",
  "examples/sample-rag/src",
];
const listFiles = process.argv.includes("--files");

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : /\.(ts|mts|js|mjs|sql)$/u.test(e.name) ? [join(dir, e.name)] : []));
}

/** A file's text without its comments (whole-line `//`, `/* … *\/` blocks and JSDoc lines): a name in prose is no literal. */
const code = (text) =>
  text
    .replace(/\/\*[\s\S]*?\*\//gu, "")
    .split("\n")
    .filter((line) => !line.trimStart().startsWith("//"))
    .join("\n");
const files = ROOTS.flatMap(walk).map((path) => {
  const text = readFileSync(path, "utf8");
  return { path, text, code: path.endsWith(".json") ? text : code(text) };
});
console.log("metric            word  literal");
for (const name of NAMES) {
  const word = new RegExp(`\\b${name}\\b`, "u");
  const literal = new RegExp(`["'\`]${name}(@|["'\`])`, "u");
  const w = files.filter((f) => word.test(f.text));
  const l = files.filter((f) => literal.test(f.code));
  console.log(`${name.padEnd(16)} ${String(w.length).padStart(5)} ${String(l.length).padStart(8)}`);
  if (listFiles) for (const f of w) console.log(`    ${l.includes(f) ? "L" : " "} ${f.path}`);
}
