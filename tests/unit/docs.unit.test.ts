// The documentation (issue 30): every `ragmeter …` command line in README.md and docs/*.md parses with
// the CLI's own commander program (built by buildCli, every action replaced by a no-op, so nothing
// runs), and every relative link of those files names an existing file and, with a #fragment, a
// heading of that file (GitHub's heading anchors).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { type Command, CommanderError } from "commander";
import { describe, expect, it } from "vitest";
import { buildCli } from "../../scorer/src/cli/main.js";

const root = path.resolve(import.meta.dirname, "../..");
const DOCS = [
  "README.md",
  ...readdirSync(path.join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];
const read = (rel: string): string => readFileSync(path.join(root, rel), "utf8");

/** Sample values for the placeholders the docs write in capitals (`--golden FILE`, `--k LIST`…). */
const PLACEHOLDER: Record<string, string> = {
  FILE: "golden.jsonl",
  OUT: "out.json",
  URL: "http://127.0.0.1:8080/ask",
  V: "v7",
  N: "3",
  B: "1000",
  LIST: "1,3,5",
  MS: "1000",
  R: "0.1",
  USD: "1",
  DATE: "2026-01-31",
  RUN: "r-1",
  RUN_A: "r-1",
  RUN_B: "r-2",
  RUN_OR_FILTER: "since=24h",
  RULES: "grounding<-0.03",
  S: "rag-api",
  A: "127.0.0.1",
  T: "ragmeter.spans",
  DIR: "corpus",
  ID: "0af7651916cd43dd8448eb211c80319c",
  SHA: "abc",
  TEXT: "request",
};

/** A command as written in a doc: where, and its words after `ragmeter`. */
interface DocCommand {
  readonly where: string;
  readonly line: string;
  /** The doc elides arguments (`…`): options it requires may be missing. */
  readonly elided: boolean;
}

/** The shell words of a command line (single and double quotes, `$VAR`s kept as words). */
function words(s: string): string[] {
  return [...s.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/gu)].map((m) => m[1] ?? m[2] ?? m[3] ?? "");
}

/** The `ragmeter` command lines of one markdown file: shell lines of code blocks and inline code spans. */
function commandLines(rel: string, text: string): DocCommand[] {
  const found: DocCommand[] = [];
  const add = (n: number, raw: string): void => {
    const m = /(?:^|\s|&&\s*)(?:npx\s+)?ragmeter\s+([a-z].*)$/u.exec(raw);
    if (m === null) return;
    // alternatives (`a \| b`): the first; shell comments, `&` and `|` pipes end the command
    const first = (m[1] ?? "").split(/\s\\?\|\s|\s#\s|\s&(?:\s|$)/u)[0] ?? "";
    found.push({ where: `${rel}:${n + 1}`, line: first.trim(), elided: first.includes("…") });
  };
  let fence: string | null = null;
  text.split("\n").forEach((l, n) => {
    const f = /^\s*```(\S*)/u.exec(l);
    if (f) {
      fence = fence === null ? (f[1] ?? "") : null;
      return;
    }
    if (fence !== null) {
      if (["sh", "bash", "shell", "console"].includes(fence)) add(n, l.trim()); // not diagrams
      return;
    }
    for (const span of l.matchAll(/`([^`]+)`/gu)) if (/^(?:npx\s+)?ragmeter\s+[a-z]/u.test(span[1] ?? "")) add(n, span[1] ?? "");
  });
  return found;
}

/** The argv of a doc's command: optional `[…]` groups and elisions dropped, placeholders filled in. */
function argvOf(line: string): string[] {
  let s = line;
  for (let prev = ""; prev !== s; ) {
    prev = s;
    s = s.replace(/\[[^[\]]*\]/gu, " ");
  }
  s = s.replace(/…/gu, " ");
  return words(s).map((w) => PLACEHOLDER[w] ?? w.replace(/^\$\{?[A-Z_]+\}?$/u, "r-1"));
}

/** Replaces every action of `cmd` and its subcommands by a no-op, so parsing runs nothing. */
function dry(cmd: Command): void {
  for (const sub of cmd.commands) {
    sub.action(() => {});
    dry(sub);
  }
}

/** The commander error parsing `argv` gives (null when it parses), nothing run. */
async function parseError(argv: string[]): Promise<CommanderError | null> {
  const out: string[] = [];
  const io = { out: (s: string) => out.push(s), err: (s: string) => out.push(s), env: {} } as unknown as Parameters<typeof buildCli>[0];
  const program = await buildCli(io, { code: 0 }, argv[0]);
  dry(program);
  try {
    await program.parseAsync(["node", "ragmeter", ...argv]);
    return null;
  } catch (err) {
    if (err instanceof CommanderError) return err;
    throw err;
  }
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, "")
    .replace(/ /gu, "-");
}

/** The anchors of a markdown file's headings (outside code blocks), with GitHub's -1, -2 for repeats. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fence = false;
  for (const l of text.split("\n")) {
    if (/^\s*```/u.test(l)) fence = !fence;
    const h = fence ? null : /^#{1,6}\s+(.*)$/u.exec(l);
    if (!h) continue;
    const a = anchor(h[1] ?? "");
    const n = seen.get(a) ?? 0;
    seen.set(a, n + 1);
    out.add(n === 0 ? a : `${a}-${n}`);
  }
  return out;
}

/** Relative links of a markdown file (outside code blocks and code spans) that do not resolve, as `where: target`. */
function brokenLinks(rel: string, text: string, exists = (p: string) => existsSync(p), readTarget = (p: string) => readFileSync(p, "utf8")): string[] {
  const broken: string[] = [];
  let fence = false;
  text.split("\n").forEach((l, n) => {
    if (/^\s*```/u.test(l)) fence = !fence;
    if (fence) return;
    for (const m of l.replace(/`[^`]*`/gu, "").matchAll(/\]\(([^)\s]+)\)/gu)) {
      const target = m[1] ?? "";
      if (/^[a-z]+:/u.test(target)) continue; // http:, https:, mailto:
      const [file = "", frag] = target.split("#");
      const abs = file === "" ? path.join(root, rel) : path.resolve(path.dirname(path.join(root, rel)), file);
      const where = `${rel}:${n + 1}: ${target}`;
      if (!exists(abs)) broken.push(where);
      else if (frag !== undefined && abs.endsWith(".md") && !anchors(readTarget(abs)).has(frag)) broken.push(`${where} (no such heading)`);
    }
  });
  return broken;
}

describe("the docs (README.md, docs/*.md)", () => {
  it("find the README's and the docs' command lines, with placeholders filled in", () => {
    const all = DOCS.flatMap((d) => commandLines(d, read(d)));
    expect(all.length).toBeGreaterThan(40);
    // the quick start's demo is `npm run demo`; the commands table and the docs name every command
    const names = new Set(all.map((c) => argvOf(c.line)[0]));
    for (const c of ["demo", "eval", "golden", "runs", "compare", "export", "report", "live", "replay", "rescore", "forget", "calibrate", "collector", "scorer", "serve"])
      expect(names, c).toContain(c);
    expect(argvOf("eval --golden FILE [--k 1,3,5,10] [--json OUT] --pipeline-version V")).toEqual(["eval", "--golden", "golden.jsonl", "--pipeline-version", "v7"]);
    expect(commandLines("x.md", "run `npx ragmeter live --since 1h` here\n```sh\nnpx ragmeter serve &   # OTLP\n```\n")).toEqual([
      { where: "x.md:1", line: "live --since 1h", elided: false },
      { where: "x.md:3", line: "serve", elided: false },
    ]);
  });

  it("every command line parses with the CLI's commander program", async () => {
    const bad: string[] = [];
    for (const d of DOCS)
      for (const c of commandLines(d, read(d))) {
        const err = await parseError(argvOf(c.line));
        if (err !== null && !(c.elided && err.code === "commander.missingMandatoryOptionValue")) bad.push(`${c.where}: ragmeter ${c.line} → ${err.message}`);
      }
    expect(bad).toEqual([]);
  });

  it("the parse check is real: an unknown option, an unknown command and a bad value are refused", async () => {
    expect((await parseError(["eval", "--golden", "g.jsonl", "--target", "http://x/ask", "--pipeline-version", "v1", "--gold", "x"]))?.code).toBe("commander.unknownOption");
    expect((await parseError(["evaluate"]))?.code).toBe("commander.unknownCommand");
    expect((await parseError(["live", "--since", "yesterday"]))?.code).toBe("commander.invalidArgument");
    expect(await parseError(["live", "--since", "1h"])).toBeNull();
  });

  it("every relative link resolves to a file, and a #fragment to one of its headings", () => {
    expect(DOCS.flatMap((d) => brokenLinks(d, read(d)))).toEqual([]);
  });

  it("the link check is real: a missing file and a missing heading are reported", () => {
    const text = "see [a](docs/nope.md), [b](docs/install.md#nope), [c](docs/install.md#docker-compose), [d](https://x.org/y)\n";
    expect(brokenLinks("README.md", text)).toEqual(["README.md:1: docs/nope.md", "README.md:1: docs/install.md#nope (no such heading)"]);
    expect(anchor("Judge benchmark (`npm run bench:judges`)")).toBe("judge-benchmark-npm-run-benchjudges");
    expect(anchor("Streaming scorer: spans → interactions → scores")).toBe("streaming-scorer-spans--interactions--scores");
  });
});
