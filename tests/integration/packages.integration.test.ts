import { spawn } from "node:child_process";
import { existsSync, lstatSync, realpathSync } from "node:fs";
import { mkdtemp, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHeuristicJudge } from "../../core/src/judges/heuristic/heuristicJudge.js";
import { judgeGrounding } from "../../core/src/judges/types.js";
import { DRIVER_MISSING } from "../../scorer/src/cli/format/browser.js";
import { openStore } from "../../store/src/client.js";
import { readStoreLock } from "../../store/src/lock.js";
import { FOUR_QUESTION_TABLE, startFixtureTarget } from "../helpers/fixtureTarget.js";

// Issue 29: the npm packages a team installs. `npm run packages` (scripts/pack/pack.mjs) packs
// `ragmeter` and `@ragmeter/instrumentation`; the tarballs are installed into an empty directory
// outside the repository (no workspace links, the registry for third-party packages, npm's default
// settings), and the installed CLI runs `demo`, `eval` against an HTTP target, and `serve` fed by a
// tiny service instrumented with the installed library. Every command is run with `npx --no`, so
// a missing local install fails instead of fetching a package of that name from the registry.

const root = path.resolve(import.meta.dirname, "../..");

/** The environment of a child: no setting of this machine's ragmeter, Kafka, ClickHouse, OTel or npm run. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!/^(RAGMETER_|KAFKA_|CLICKHOUSE_|OTEL_|OPENAI_|npm_|INIT_CWD$)/iu.test(k) && !/^VITEST|^TEST$|^NODE_ENV$/u.test(k)) env[k] = v;
  return { ...env, ...extra };
}

interface Ran {
  code: number | null;
  out: string;
  err: string;
}

/** Runs a command to its end without blocking this process (the fixture target answers from it). */
function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = cleanEnv()): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, out, err }));
  });
}

/** `npx --no ragmeter …` in the install directory. */
const ragmeter = (args: string[], env?: NodeJS.ProcessEnv): Promise<Ran> => run("npx", ["--no", "ragmeter", ...args], installDir, env);
/** The repository's own CLI (scorer/bin, the compiled workspaces). */
const repoRagmeter = (args: string[]): Promise<Ran> => run(process.execPath, [path.join(root, "scorer", "bin", "ragmeter.js"), ...args], root);

/** Demo output without what differs between two runs: run ids and the store's path. */
const normalise = (s: string): string => s.replace(/r-\d{8}T\d{6}-[0-9a-f]{6}/gu, "r-RUN").replace(/^history: .*$/gmu, "history: HOME");

/** The installed version of a package of the repository (so the install finds it in npm's cache). */
const repoVersion = async (name: string): Promise<string> =>
  (JSON.parse(await readFile(path.join(root, "node_modules", name, "package.json"), "utf8")) as { version: string }).version;

let work: string;
let installDir: string;
let packed: { name: string; file: string; size: number; unpackedSize: number; entryCount: number; bundledPackages?: string[] }[];
let installMs = 0;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), "ragmeter-packages-"));
  const tarballs = path.join(work, "tarballs");
  const p = await run(process.execPath, [path.join(root, "scripts", "pack", "pack.mjs"), "--out", tarballs], root);
  expect(p.err.replace(/^npm warn .*\n/gmu, ""), "npm run packages").not.toMatch(/^packages: /mu);
  expect(p.code).toBe(0);
  packed = JSON.parse(p.out);
  installDir = path.join(work, "app");
  await run("mkdir", ["-p", installDir], work);
  await writeFile(path.join(installDir, "package.json"), `${JSON.stringify({ name: "a-team-service", private: true, type: "module" }, null, 2)}\n`);
  // what a team adds for its instrumented service: the OTel API and the SDK packages startTracing() loads (optional peers)
  const otel = await Promise.all(
    ["@opentelemetry/api", "@opentelemetry/sdk-node", "@opentelemetry/sdk-trace-base", "@opentelemetry/resources", "@opentelemetry/exporter-trace-otlp-proto"].map(
      async (n) => `${n}@${await repoVersion(n)}`,
    ),
  );
  const t0 = performance.now();
  const i = await run("npm", ["install", ...packed.map((x) => x.file), ...otel, "--no-audit", "--no-fund", "--prefer-offline"], installDir);
  installMs = performance.now() - t0;
  expect(i.code, i.err).toBe(0);
  process.stderr.write(
    `packages: ${packed.map((x) => `${path.basename(x.file)} ${(x.size / 1024).toFixed(0)} KiB (${(x.unpackedSize / 1024).toFixed(0)} KiB unpacked)`).join(", ")}; npm install in ${(installMs / 1000).toFixed(1)} s\n`,
  );
}, 300_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe("npm packages installed from their tarballs outside the repository", () => {
  it("installs as packages, not links: ragmeter bundles its workspaces, the sample and the browser driver are no dependencies", async () => {
    expect(path.relative(root, installDir).startsWith("..")).toBe(true);
    const nm = path.join(installDir, "node_modules");
    for (const name of ["ragmeter", "@ragmeter/instrumentation"]) {
      expect(lstatSync(path.join(nm, name)).isSymbolicLink(), name).toBe(false);
      expect(realpathSync(path.join(nm, name)).startsWith(root)).toBe(false);
    }
    // no workspace package but the library: the CLI's own are compiled into it
    expect(await readdir(path.join(nm, "@ragmeter"))).toEqual(["instrumentation"]);
    // neither the sample's own dependency (bundled into demo's chunk) nor the optional peer playwright-core
    expect(existsSync(path.join(nm, "minisearch"))).toBe(false);
    expect(existsSync(path.join(nm, "playwright-core"))).toBe(false);
    const m = JSON.parse(await readFile(path.join(nm, "ragmeter", "package.json"), "utf8"));
    expect(m).toMatchObject({ name: "ragmeter", license: "Apache-2.0", bin: { ragmeter: "dist/ragmeter.js" }, peerDependenciesMeta: { "playwright-core": { optional: true } } });
    expect(Object.keys(m.dependencies).filter((d) => d.startsWith("@ragmeter/") || d === "playwright-core" || d === "minisearch")).toEqual([]);
    for (const name of ["ragmeter", "@ragmeter/instrumentation"]) for (const f of ["LICENSE", "README.md"]) expect(existsSync(path.join(nm, name, f)), `${name}/${f}`).toBe(true);
    expect(await readFile(path.join(nm, "ragmeter", "LICENSE"), "utf8")).toBe(await readFile(path.join(root, "LICENSE"), "utf8"));
    expect(await readFile(path.join(nm, "ragmeter", "THIRD-PARTY-LICENSES.txt"), "utf8")).toContain("minisearch");
    // the store's schema migrations beside dist/ (the bundle reads ../migrations/ of its chunk), the .sql files only
    const migrations = (await readdir(path.join(root, "store", "migrations"))).filter((f) => f.endsWith(".sql"));
    expect(migrations.length).toBeGreaterThanOrEqual(12);
    expect((await readdir(path.join(nm, "ragmeter", "migrations"))).sort()).toEqual(migrations.sort());
    for (const f of migrations)
      expect(await readFile(path.join(nm, "ragmeter", "migrations", f), "utf8"), f).toBe(await readFile(path.join(root, "store", "migrations", f), "utf8"));
    expect(installMs).toBeGreaterThan(0);
  });

  it("ragmeter collector becomes the collector's bundle with its Node flag and malloc setting, in the same process (issue 31)", async () => {
    const bin = path.join(installDir, "node_modules", "ragmeter", "dist", "ragmeter.js");
    const bundle = path.join(installDir, "node_modules", "ragmeter", "dist", "bundle", "main.js");
    expect(existsSync(bundle)).toBe(true);
    // no broker needed to start: the collector listens and answers 503 until Kafka is reachable
    const child = spawn(process.execPath, [bin, "collector", "--port", "0", "--host", "127.0.0.1", "--brokers", "127.0.0.1:1"], {
      cwd: installDir,
      env: cleanEnv(),
      stdio: ["ignore", "ignore", "pipe"],
    });
    const exited = new Promise<number | null>((r) => child.on("close", (code) => r(code)));
    let log = "";
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no "collector listening" within 30 s: ${log}`)), 30_000);
        child.stderr.on("data", (d: Buffer) => {
          log += d.toString();
          if (log.includes('"collector listening"')) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
      const cmdline = (await readFile(`/proc/${child.pid}/cmdline`, "utf8")).split("\0").filter(Boolean);
      expect(cmdline).toEqual([process.execPath, "--max-semi-space-size=4", realpathSync(bundle), "--port", "0", "--host", "127.0.0.1", "--brokers", "127.0.0.1:1"]);
      const environ = (await readFile(`/proc/${child.pid}/environ`, "utf8")).split("\0");
      expect(environ).toContain("MALLOC_ARENA_MAX=2");
      expect(log).not.toContain("running the collector in this process");
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
  });

  it("npx ragmeter demo prints exactly what npm run demo prints in the repository", async () => {
    const installed = await ragmeter(["demo", "--home", path.join(work, "demo-installed")]);
    expect(installed.code, installed.err).toBe(0);
    const repo = await repoRagmeter(["demo", "--home", path.join(work, "demo-repo")]);
    expect(repo.code, repo.err).toBe(0);
    expect(installed.out).toContain("=== sample pipeline v2:");
    expect(installed.out).toMatch(/^recall@5 +\d\.\d\d +\(n=112\)$/mu);
    expect(normalise(installed.out)).toBe(normalise(repo.out));
  }, 180_000); // two demos in a row: 3 s each on a quiet box, 30 s each seen at load 29 (60 s default too short)

  it("without its migrations folder the installed CLI says in one line which folder is missing (it is looked for beside dist/)", async () => {
    const folder = path.join(installDir, "node_modules", "ragmeter", "migrations");
    await rename(folder, `${folder}.away`);
    try {
      const r = await ragmeter(["demo", "--home", path.join(work, "demo-no-migrations")]);
      expect(r.code).toBe(2);
      expect(r.err.split("\n").filter((l) => l.startsWith("ragmeter: "))).toEqual([
        `ragmeter: the schema migrations folder ${realpathSync(path.dirname(folder))}/migrations/ is missing (an incomplete installation: it ships beside the code)`,
      ]);
    } finally {
      await rename(`${folder}.away`, folder);
    }
  }, 60_000);

  it("report --png without playwright-core writes the HTML and says in one line what to install", async () => {
    const home = path.join(work, "demo-installed");
    const r = await ragmeter(["report", "--png", "--home", home, "--out", path.join(work, "report.html")]);
    expect(r.code).toBe(2);
    expect(existsSync(path.join(work, "report.html"))).toBe(true);
    const lines = r.err.split("\n").filter((l) => l.startsWith("ragmeter: "));
    expect(lines).toEqual([`ragmeter: ${DRIVER_MISSING}`]);
  });

  it("npx ragmeter eval against an HTTP target: the figures computed by hand, and the same JSON as the repository's CLI", async () => {
    const golden = [
      { id: "g1", question: "How many days is the refund window?", expected_source: "billing/refunds.md", expected_substring: "within 30 days", key_facts: ["30 days"] },
      { id: "g2", question: "Which port does PostgreSQL listen on?", expected_source: "postgres/connecting.md", expected_substring: "port 5432", key_facts: ["5432"] },
      { id: "g3", question: "Do you offer GPU servers?", expected_source: null },
      { id: "g4", question: "What is the price of a snapshot?", expected_source: "backups/snapshots.md", expected_substring: "per GB" },
    ];
    const goldenFile = path.join(work, "golden.jsonl");
    await writeFile(goldenFile, golden.map((g) => JSON.stringify(g)).join("\n"));
    const target = await startFixtureTarget(FOUR_QUESTION_TABLE);
    try {
      const args = (home: string, out: string) => [
        "eval",
        "--golden",
        goldenFile,
        "--target",
        target.url,
        "--pipeline-version",
        "pkg-1",
        "--k",
        "1,3",
        "--json",
        out,
        "--home",
        home,
      ];
      const r = await ragmeter(args(path.join(work, "eval-installed"), path.join(work, "eval-installed.json")));
      expect(r.code, r.err).toBe(0);
      const j = JSON.parse(await readFile(path.join(work, "eval-installed.json"), "utf8"));
      // g1 hit at rank 1, g2 at rank 3 (tests/integration/eval-cli.integration.test.ts explains each figure)
      expect(j.metrics["recall@1"]).toBe(0.5);
      expect(j.metrics["recall@3"]).toBe(1);
      expect(j.metrics.mrr).toBeCloseTo((1 + 1 / 3) / 2, 12);
      expect(j.metrics.grounding).toBe(0.5);
      expect(j.metrics.abstention).toBe(1);
      expect(j.counts.questions).toEqual({ ok: 3, target_error: 1 });
      expect(target.headers).toHaveLength(4);
      for (const h of target.headers)
        expect(h["baggage"]).toMatch(new RegExp(`ragmeter\\.run\\.id=${j.run_id},ragmeter\\.golden\\.id=g[1-4],ragmeter\\.pipeline\\.version=pkg-1`, "u"));
      expect(r.out).toMatch(/^recall@1 +0\.50 +\(n=2\)$/mu);

      const repo = await repoRagmeter(args(path.join(work, "eval-repo"), path.join(work, "eval-repo.json")));
      expect(repo.code, repo.err).toBe(0);
      const k = JSON.parse(await readFile(path.join(work, "eval-repo.json"), "utf8"));
      expect(j.metrics).toEqual(k.metrics);
      expect(j.counts).toEqual(k.counts);
      const strip = (q: Record<string, unknown>) => ({ ...q, trace_id: null, latency_ms: null });
      expect(j.questions.map(strip)).toEqual(k.questions.map(strip));
    } finally {
      await target.close();
    }
  });

  it("a service instrumented with the installed @ragmeter/instrumentation exports to npx ragmeter serve, which stores and scores its traces", async () => {
    const home = path.join(work, "serve-home");
    const serve = spawn("npx", ["--no", "ragmeter", "serve", "--port", "0", "--host", "127.0.0.1", "--quiet-ms", "300", "--home", home], {
      cwd: installDir,
      env: cleanEnv(),
      stdio: ["ignore", "pipe", "pipe"],
      detached: true, // its own process group: npx does not pass SIGTERM on, so the group gets it
    });
    let log = "";
    const exited = new Promise<number | null>((r) => serve.on("close", (code) => r(code)));
    serve.stdout.on("data", (d: Buffer) => (log += d.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`serve did not start:\n${log}`)), 60_000);
      serve.stderr.on("data", (d: Buffer) => {
        log += d.toString();
        const m = /"otlp":"(http:\/\/[^"]+)".*"msg":"serve running"/u.exec(log);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      });
      serve.on("close", () => reject(new Error(`serve exited:\n${log}`)));
    });
    // SIGTERM to serve itself, the PID in its store's lock (npx passes no signal on): it shuts down
    // gracefully and exits 0, and so does npx; the group gets it only if that did not happen
    const stopServe = async (): Promise<number | null> => {
      const owner = readStoreLock(home);
      if (owner?.alive) process.kill(owner.pid, "SIGTERM");
      const code = await Promise.race([exited, new Promise<"late">((r) => setTimeout(() => r("late"), 20_000))]);
      if (code !== "late") return code;
      if (serve.pid !== undefined) process.kill(-serve.pid, "SIGKILL");
      return exited;
    };
    type Reply = { question: string; answer: string; contexts: { id: string; document_id: string; text: string; score: number }[] };
    let replies: Reply[] = [];
    try {
      const service = `
import { createRagInstrumentation } from "@ragmeter/instrumentation";
import { startTracing } from "@ragmeter/instrumentation/tracing";

const tracing = startTracing({ serviceName: "pkg-service", pipelineVersion: "svc-1", signals: [] });
const rag = createRagInstrumentation({ pipelineVersion: "svc-1", captureContent: true, dataSourceId: "kb" });
const corpus = [
  { id: "billing/refunds.md#1", document_id: "billing/refunds.md", text: "Refunds are possible within 30 days of the payment.", score: 0 },
  { id: "postgres/connecting.md#2", document_id: "postgres/connecting.md", text: "PostgreSQL listens on port 5432 by default.", score: 0 },
];
const search = (q) => corpus.map((c) => ({ ...c, score: q.split(" ").filter((w) => c.text.includes(w)).length })).sort((a, b) => b.score - a.score);
const replies = [];
for (const question of ["How many days is the refund window?", "Which port does PostgreSQL listen on?"]) {
  replies.push(await rag.traceInteraction(async () => {
    const contexts = await rag.traceRetrieval(question, () => search(question));
    const { answer } = await rag.traceGeneration({ model: "extractive", question, inProcess: true }, () => ({ answer: contexts[0].text, model: "extractive", usage: { input_tokens: 12, output_tokens: 9 } }));
    return { question, answer, contexts };
  }));
}
await tracing.shutdown();
process.stdout.write(JSON.stringify(replies));
`;
      await writeFile(path.join(installDir, "service.mjs"), service);
      const s = await run(process.execPath, ["service.mjs"], installDir, cleanEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: url }));
      expect(s.code, s.err).toBe(0);
      replies = JSON.parse(s.out) as Reply[];
      expect(replies.map((r) => r.contexts[0]!.document_id)).toEqual(["billing/refunds.md", "postgres/connecting.md"]);

      // the installed CLI reads the live traffic from serve's read API (the store's owner)
      let live: {
        groups: { service: string; pipeline_version: string; traces_seen: number; traces_scored: number; metrics: Record<string, { n: number; mean: number | null }> }[];
      } | null = null;
      for (const deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 500))) {
        const l = await ragmeter(["live", "--json", "--home", home]);
        expect(l.code, l.err).toBe(0);
        live = JSON.parse(l.out);
        if (live!.groups[0]?.traces_scored === 2) break;
      }
      const judge = createHeuristicJudge();
      const expected = await Promise.all(replies.map((r) => judgeGrounding(judge, { question: r.question, answer: r.answer, chunks: r.contexts })));
      expect(live!.groups).toHaveLength(1);
      expect(live!.groups[0]).toMatchObject({ service: "pkg-service", pipeline_version: "svc-1", traces_seen: 2, traces_scored: 2, metrics: { grounding: { n: 2 } } });
      expect(live!.groups[0]!.metrics["grounding"]?.mean).toBeCloseTo((expected[0]!.value! + expected[1]!.value!) / 2, 12);
      expect(await stopServe()).toBe(0);
      // the installed package's judge thread (its own bundle entry, judgeWorker.js) loaded and judged: serve warns when it judges on the main thread instead
      expect(log).not.toMatch(/heuristic judge runs on the main thread/u);
    } finally {
      if (serve.exitCode === null) await stopServe();
    }

    // independent check on the store serve wrote: the interactions as the service answered them, graded by the judge
    const store = await openStore({ kind: "embedded", home, database: "ragmeter" });
    try {
      const rs = await store.client.query({
        query: "SELECT trace_id, source, service_name, question, answer, length(retrieved) AS n FROM ragmeter.interactions FINAL ORDER BY question",
        format: "JSONEachRow",
      });
      const rows = (await rs.json()) as { trace_id: string; source: string; service_name: string; question: string; answer: string; n: number }[];
      expect(rows.map((r) => [r.service_name, r.source, r.question, Number(r.n)])).toEqual([
        ["pkg-service", "live", "How many days is the refund window?", 2],
        ["pkg-service", "live", "Which port does PostgreSQL listen on?", 2],
      ]);
      const judge = createHeuristicJudge();
      for (const [i, row] of rows.entries()) {
        const reply = replies[i]!;
        expect(row.answer).toBe(reply.answer);
        const expected = await judgeGrounding(judge, { question: reply.question, answer: reply.answer, chunks: reply.contexts });
        const g = await store.client.query({
          query: "SELECT value, status FROM ragmeter.scores FINAL WHERE trace_id = {t:String} AND metric = 'grounding'",
          query_params: { t: row.trace_id },
          format: "JSONEachRow",
        });
        expect(await g.json()).toEqual([{ value: expected.value, status: expected.status }]);
      }
    } finally {
      await store.close();
    }
  });
});
