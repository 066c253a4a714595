import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli } from "../helpers/cli.js";
import { startOtherShapeService } from "../helpers/otherShapeTarget.js";

// Four items, one per match mode (the unanswerable one with explicit nulls, no id: derived).
const JSONL = [
  { id: "g1", question: "How do I renew the certificate?", expected_chunk_id: "ssl.md#2", tags: ["topic:ssl"] },
  { id: "g2", question: "How often are backups taken?", expected_source: "backup.md", expected_substring: null, tags: ["topic:backups"] },
  { id: "g3", question: "Which port does PostgreSQL use?", expected_source: "pg.md", expected_substring: "port 5432", tags: ["topic:postgres", "numeric"] },
  { question: "Do you sell GPUs?", expected_source: null, expected_substring: null, tags: ["unanswerable"] },
];
const CSV = [
  "\uFEFFid,question,expected_source,expected_substring,expected_chunk_id,tags",
  "g1,How do I renew the certificate?,,,ssl.md#2,topic:ssl",
  "g2,How often are backups taken?,backup.md,,,topic:backups",
  'g3,Which port does PostgreSQL use?,pg.md,port 5432,,"topic:postgres;numeric"',
  ",Do you sell GPUs?,,,,unanswerable",
].join("\r\n");

const TABLE = {
  "How do I renew the certificate?": {
    response: "Run certbot renew.",
    sources: [
      { chunk: "ssl.md#1", doc: "ssl.md", content: "Certificates are issued by Let's Encrypt.", score: 0.9 },
      { chunk: "ssl.md#2", doc: "ssl.md", content: "Run certbot renew to renew a certificate.", score: 0.8 },
    ],
  },
  "How often are backups taken?": {
    response: "Backups are taken daily.",
    sources: [
      { chunk: "pg.md#1", doc: "pg.md", content: "PostgreSQL uses port 5432.", score: 0.7 },
      { chunk: "backup.md#4", doc: "backup.md", content: "Backups are taken daily at 02:00.", score: 0.6 },
    ],
  },
  "Which port does PostgreSQL use?": { response: "PostgreSQL uses port 5432.", sources: [{ chunk: "pg.md#1", doc: "pg.md", content: "PostgreSQL uses port 5432.", score: 0.9 }] },
  "Do you sell GPUs?": { response: "Sorry, I could not find that in the documentation.", sources: [] },
};

const POST_CONFIG = {
  url: "URL/search?run={{run_id}}",
  method: "POST",
  headers: { authorization: "Bearer ${MY_TOKEN}", "x-golden-id": "{{golden_id}}" },
  body: { query: "{{question}}", top_k: "{{k}}", note: "k={{k}}" },
  response: { answer: "$.response", contexts: "$.sources[*]", context: { id: "$.chunk", document_id: "$.doc", text: "$.content", score: "$.score" } },
};

let dir: string;
let service: Awaited<ReturnType<typeof startOtherShapeService>>;
let jsonl: string;
let csv: string;
let postConfig: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "ragmeter-golden-targets-"));
  service = await startOtherShapeService(TABLE);
  jsonl = path.join(dir, "golden.jsonl");
  csv = path.join(dir, "golden.csv");
  await writeFile(jsonl, JSONL.map((g) => JSON.stringify(g)).join("\n"));
  await writeFile(csv, CSV);
  postConfig = path.join(dir, "target.json");
  await writeFile(postConfig, JSON.stringify({ ...POST_CONFIG, url: POST_CONFIG.url.replace("URL", service.url) }));
});
afterAll(async () => {
  await service.close();
});

const evalArgs = (golden: string, targetFlags: string[], json: string, home: string): string[] => [
  "eval",
  "--golden",
  golden,
  ...targetFlags,
  "--pipeline-version",
  "other-1",
  "--k",
  "1,3",
  "--json",
  json,
  "--home",
  home,
];

describe("eval --target-config against a service of another shape", () => {
  it("fills the request, maps the reply by JSONPath, scores every match mode; JSONL and CSV agree", async () => {
    const figures: Record<string, unknown>[] = [];
    for (const golden of [jsonl, csv]) {
      const out = path.join(dir, `${path.basename(golden)}.json`);
      service.requests.length = 0;
      const r = await cli(evalArgs(golden, ["--target-config", postConfig], out, path.join(dir, `home-${path.extname(golden).slice(1)}`)), { MY_TOKEN: "s3cret" });
      expect(r.code).toBe(0);
      // the loader's notices, each once
      expect(r.err.match(/no id: ids derived/gu)).toHaveLength(1);
      expect(r.err.match(/by expected_chunk_id/gu)).toHaveLength(1);
      const j = JSON.parse(await readFile(out, "utf8"));
      // recall@1: g1 chunk hit at rank 2 (0), g2 document hit at rank 2 (0), g3 substring hit at rank 1 (1) → 1/3
      expect(j.metrics["recall@1"]).toBeCloseTo(1 / 3, 12);
      expect(j.metrics["recall@3"]).toBe(1);
      expect(j.metrics.mrr).toBeCloseTo((1 / 2 + 1 / 2 + 1) / 3, 12);
      expect(j.counts["recall@1"]).toEqual({ ok: 3, not_applicable: 1 });
      expect(j.match_modes).toEqual({
        chunk_id: { items: 1, recall: { "recall@1": 0, "recall@3": 1 }, n: 1 },
        document: { items: 1, recall: { "recall@1": 0, "recall@3": 1 }, n: 1 },
        substring: { items: 1, recall: { "recall@1": 1, "recall@3": 1 }, n: 1 },
        lines: { items: 0, recall: { "recall@1": null, "recall@3": null }, n: 0 },
        unanswerable: { items: 1, recall: { "recall@1": null, "recall@3": null }, n: 0 },
      });
      expect(r.out).toContain("match modes: chunk_id 1, document 1, substring 1, unanswerable 1");
      // the service answers 2, 2, 1 and 0 contexts (asked for top_k 3): recall@3 sees at most 2
      expect(j.warnings).toEqual([
        'the target returned at most 2 contexts per question (exactly 2 in 2 of 3 answers, as if capped): recall@k, precision@k and ndcg@k for k = 3 see only those; have it return 3 (a target config can send "top_k": "{{k}}", the largest --k)',
      ]);
      figures.push({ sha: j.golden_set.sha256, metrics: j.metrics, counts: j.counts, modes: j.match_modes });
      // the requests: the body filled ({{k}} alone is the number 3, inside a string its text), env and trace headers added
      expect(service.requests).toHaveLength(4);
      const req = service.requests.find((q) => (q.body as { query: string }).query === "Which port does PostgreSQL use?");
      expect(req?.method).toBe("POST");
      expect(req?.body).toEqual({ query: "Which port does PostgreSQL use?", top_k: 3, note: "k=3" });
      expect(req?.headers["authorization"]).toBe("Bearer s3cret");
      expect(req?.headers["x-golden-id"]).toBe("g3");
      expect(req?.headers["traceparent"]).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/u);
      expect(req?.headers["baggage"]).toContain("ragmeter.golden.id=g3");
      expect(req?.url).toBe(`/search?run=${j.run_id}`);
    }
    expect(figures[1]).toEqual(figures[0]);
  });

  it("expected_lines through --corpus, key_facts and tags as JSON-array or ;-separated cells: JSONL and CSV agree", async () => {
    const corpus = path.join(dir, "lines-corpus");
    await mkdir(corpus, { recursive: true });
    await writeFile(path.join(corpus, "pg.md"), "# Connecting\nPostgreSQL uses port 5432.\nUse TLS.\n");
    const lj = path.join(dir, "lines.jsonl");
    const lc = path.join(dir, "lines.csv");
    await writeFile(
      lj,
      `${JSON.stringify({ id: "l1", question: "Which port does PostgreSQL use?", expected_source: "pg.md", expected_lines: [2, 2], key_facts: ["5432"], tags: ["numeric", "topic:postgres"], reference_answer: null })}\n`,
    );
    await writeFile(lc, 'id,question,expected_source,expected_lines,key_facts,tags\nl1,Which port does PostgreSQL use?,pg.md,"[2, 2]","[""5432""]",numeric;topic:postgres\n');
    const seen: Record<string, unknown>[] = [];
    for (const f of [lj, lc]) {
      const out = path.join(dir, `${path.basename(f)}.run.json`);
      const r = await cli([...evalArgs(f, ["--target-config", postConfig], out, path.join(dir, `home-lines-${path.extname(f).slice(1)}`)), "--corpus", corpus], { MY_TOKEN: "t" });
      expect(r.code).toBe(0);
      const j = JSON.parse(await readFile(out, "utf8"));
      // the resolved line "PostgreSQL uses port 5432." is in the one source, rank 1; the answer states 5432
      expect(j.metrics["recall@1"]).toBe(1);
      expect(j.metrics.key_facts).toBe(1);
      expect(j.match_modes.lines).toEqual({ items: 1, recall: { "recall@1": 1, "recall@3": 1 }, n: 1 });
      seen.push({ sha: j.golden_set.sha256, metrics: j.metrics, by_tag: j.by_tag });
    }
    expect(seen[1]).toEqual(seen[0]);
  });

  it("GET with query parameters from a YAML config", async () => {
    const yamlFile = path.join(dir, "target.yaml");
    await writeFile(
      yamlFile,
      [
        `url: ${service.url}/search`,
        "method: GET",
        "queryParams:",
        '  q: "{{question}}"',
        '  top_k: "{{k}}"',
        "response:",
        "  answer: $.response",
        "  contexts: $.sources[*]",
        "  context: {id: $.chunk, document_id: $.doc, text: $.content}",
      ].join("\n"),
    );
    service.requests.length = 0;
    const out = path.join(dir, "get.json");
    const r = await cli(evalArgs(jsonl, ["--target-config", yamlFile], out, path.join(dir, "home-get")));
    expect(r.code).toBe(0);
    const j = JSON.parse(await readFile(out, "utf8"));
    expect(j.metrics["recall@3"]).toBe(1);
    const req = service.requests.find((q) => q.url.includes("PostgreSQL"));
    expect(req?.method).toBe("GET");
    expect(req?.url).toBe("/search?q=Which+port+does+PostgreSQL+use%3F&top_k=3");
  });

  it("a mapping that finds nothing is a target_error naming the path and showing the body", async () => {
    const cfg = path.join(dir, "broken.json");
    await writeFile(cfg, JSON.stringify({ ...POST_CONFIG, url: `${service.url}/broken`, headers: {} }));
    const out = path.join(dir, "broken-run.json");
    const r = await cli(evalArgs(jsonl, ["--target-config", cfg], out, path.join(dir, "home-broken")));
    expect(r.code).toBe(2);
    const j = JSON.parse(await readFile(out, "utf8"));
    expect(j.counts.questions).toEqual({ target_error: 4 });
    expect(j.questions[0].reason).toBe('response mapping answer "$.response" found nothing; body starts "{\\"result\\":\\"no answer field here\\"}"');
  });

  it("a missing ${VAR} is a configuration error naming it", async () => {
    const r = await cli(evalArgs(jsonl, ["--target-config", postConfig], path.join(dir, "x.json"), path.join(dir, "home-env")), {});
    expect(r.code).toBe(2);
    expect(r.err.trim().split("\n").at(-1)).toBe(`ragmeter: --target-config ${postConfig}: environment variable MY_TOKEN is not set (used as \${MY_TOKEN})`);
  });
});

describe("eval --target-module", () => {
  it("calls ask(question, {k, headers, signal}) of a .ts module; contexts without document_id warn with the counts", async () => {
    const mod = path.join(dir, "my-rag.ts");
    await writeFile(
      mod,
      [
        "const seen: { k: number; traceparent: string }[] = [];",
        "export async function ask(question: string, o: { k: number; headers: Record<string, string>; signal: AbortSignal }): Promise<unknown> {",
        "  seen.push({ k: o.k, traceparent: o.headers.traceparent ?? '' });",
        "  if (!(o.signal instanceof AbortSignal)) throw new Error('no signal');",
        "  if (!/^00-[0-9a-f]{32}-/.test(o.headers.traceparent ?? '') || o.k !== 3) throw new Error('bad options');",
        "  // chunk ids only, no document_id: the chunk id stands in for it",
        "  return { answer: 'PostgreSQL uses port 5432.', contexts: [{ id: 'c-1', text: 'PostgreSQL uses port 5432.' }, { id: 'c-2', text: 'Backups are taken daily.' }] };",
        "}",
      ].join("\n"),
    );
    const out = path.join(dir, "module.json");
    const r = await cli(evalArgs(jsonl, ["--target-module", mod], out, path.join(dir, "home-module")));
    expect(r.code).toBe(0);
    const j = JSON.parse(await readFile(out, "utf8"));
    expect(j.counts.questions).toEqual({ ok: 4 });
    // no document id matches: recall 0 for the document and substring items (the chunk-id item misses too)
    expect(j.metrics["recall@3"]).toBe(0);
    // 2 distinct expected sources (backup.md, pg.md; the chunk-id item has none) among 4 × 2 retrieved items
    expect(j.warnings).toContain("none of 2 expected sources among 8 retrieved items; do contexts carry document_id? (without one, the chunk id is used as document id)");
    expect(r.out).toContain("warning: none of 2 expected sources among 8 retrieved items");
  });

  it("refuses a module without ask, and more than one target flag", async () => {
    const mod = path.join(dir, "no-ask.mjs");
    await writeFile(mod, "export const answer = 1;\n");
    const a = await cli(evalArgs(jsonl, ["--target-module", mod], path.join(dir, "y.json"), path.join(dir, "home-noask")));
    expect(a.code).toBe(2);
    expect(a.err).toContain(`ragmeter: --target-module ${mod}: exports no function "ask"`);
    const b = await cli(evalArgs(jsonl, ["--target-module", mod, "--target-config", postConfig], path.join(dir, "z.json"), path.join(dir, "home-both")));
    expect(b.code).toBe(2);
    expect(b.err).toContain("give exactly one of --target URL, --target-config FILE, --target-module FILE");
  });
});

describe("ragmeter golden pin", () => {
  it("turns the chunk-id and document-only items into document + substring items from the run's chunks; the pinned set scores the same", async () => {
    const home = path.join(dir, "home-pin");
    const first = path.join(dir, "pin-run.json");
    expect((await cli(evalArgs(jsonl, ["--target-config", postConfig], first, home), { MY_TOKEN: "t" })).code).toBe(0);
    const runId = JSON.parse(await readFile(first, "utf8")).run_id as string;
    const pinnedFile = path.join(dir, "pinned.jsonl");
    const p = await cli(["golden", "pin", "--run", runId, "--out", pinnedFile, "--home", home]);
    expect(p.code).toBe(0);
    expect(p.out).toContain(`wrote ${pinnedFile}: 4 items, 2 of 2 chunk-id or document-only items pinned to document + substring (run ${runId})`);
    const lines = (await readFile(pinnedFile, "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.id, l.expected_source, l.expected_substring, l.expected_chunk_id])).toEqual([
      ["g1", "ssl.md", "Run certbot renew to renew a certificate.", undefined],
      ["g2", "backup.md", "Backups are taken daily at 02:00.", undefined],
      ["g3", "pg.md", "port 5432", undefined],
      [expect.stringMatching(/^q-[0-9a-f]{12}$/u), null, null, undefined],
    ]);
    const second = path.join(dir, "pinned-run.json");
    expect((await cli(evalArgs(pinnedFile, ["--target-config", postConfig], second, home), { MY_TOKEN: "t" })).code).toBe(0);
    const j = JSON.parse(await readFile(second, "utf8"));
    expect(j.metrics["recall@1"]).toBeCloseTo(1 / 3, 12);
    expect(j.metrics["recall@3"]).toBe(1);
    expect(j.match_modes.substring).toEqual({ items: 3, recall: { "recall@1": 1 / 3, "recall@3": 1 }, n: 3 });
  });

  it("refuses an unknown run in one line", async () => {
    const r = await cli(["golden", "pin", "--run", "r-nope", "--out", path.join(dir, "p.jsonl"), "--home", path.join(dir, "home-pin")]);
    expect(r.code).toBe(2);
    expect(r.err.trim()).toBe("ragmeter: golden pin: --run r-nope: no such run (see `ragmeter runs`)");
  });
});

describe("ragmeter golden check", () => {
  it("counts by mode and tag, the unanswerable share, duplicate questions and substrings against the corpus", async () => {
    const corpus = path.join(dir, "corpus");
    await mkdir(corpus, { recursive: true });
    await writeFile(path.join(corpus, "a.md"), "Click the reset link.\nThe reset link expires.");
    await writeFile(path.join(corpus, "b.md"), "PostgreSQL uses port 5432.");
    const file = path.join(dir, "check.jsonl");
    const items = [
      { id: "a", question: "How do I reset my password?", expected_source: "a.md", expected_substring: "reset link", tags: ["topic:account"] },
      { id: "b", question: "how do I reset my password", expected_source: "a.md", expected_substring: "expires", tags: ["topic:account"] },
      { id: "c", question: "What port does PostgreSQL use?", expected_source: "b.md", expected_substring: "port 6543", tags: ["topic:postgres"] },
      { id: "d", question: "Where is the missing doc kept?", expected_source: "missing.md", expected_substring: "x" },
      { id: "e", question: "Do you sell GPUs?", expected_source: null, tags: ["unanswerable"] },
      { id: "f", question: "How do I reset my password quickly?", expected_source: "a.md" },
    ];
    await writeFile(file, items.map((i) => JSON.stringify(i)).join("\n"));
    const r = await cli(["golden", "check", file, "--corpus", corpus]);
    expect(r.code).toBe(1);
    const out = r.out.trim().split("\n");
    expect(out.slice(1)).toEqual([
      "match modes: chunk_id 0, document 1, substring 4, lines 0, unanswerable 1",
      "unanswerable: 16.7% (1 of 6)",
      "by tag: topic:account 2, topic:postgres 1, unanswerable 1",
      "duplicate or near-duplicate questions: 3",
      // {how, do, i, reset, my, password} twice: 6/6; with "quickly": 6/7
      "  duplicate a ~ b (word overlap 1.00)",
      "  near-duplicate a ~ f (word overlap 0.86)",
      "  near-duplicate b ~ f (word overlap 0.86)",
      `substrings: 3 of 4 not found exactly once in ${corpus}`,
      '  a: found 2 times in "a.md"',
      '  c: not found in "b.md"',
      '  d: document "missing.md" not found',
    ]);
  });

  it("a clean set exits 0; a bad line is one error naming file, line and field", async () => {
    const ok = await cli(["golden", "check", csv]);
    expect(ok.code).toBe(0);
    expect(ok.out).toContain("match modes: chunk_id 1, document 1, substring 1, lines 0, unanswerable 1");
    expect(ok.out).toContain("duplicate questions: none");
    const bad = path.join(dir, "bad.jsonl");
    await writeFile(bad, '{"id": "x", "question": ""}\n');
    const b = await cli(["golden", "check", bad]);
    expect(b.code).toBe(2);
    expect(b.err.trim()).toMatch(/^ragmeter: .*bad\.jsonl:1: field "question": must be a non-empty string$/u);
  });
});
