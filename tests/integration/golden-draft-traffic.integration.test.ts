// `ragmeter golden draft --from-traffic` (issue 37) on real captured traffic: two sample services
// (npm run sample:serve) export their spans to `ragmeter serve`, which stores and scores them; the
// draft then reads the store. Expected sources are those the services ranked first, read from their
// replies here.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseGoldenSet } from "@ragmeter/golden";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli } from "../helpers/cli.js";
import { startSampleServeChild } from "../helpers/sampleServe.js";

const root = path.resolve(import.meta.dirname, "../..");
const bin = path.join(root, "scorer/bin/ragmeter.js");

const ASKED: readonly (readonly [service: "shop" | "help", question: string])[] = [
  ["shop", "How long is the grace period when my balance reaches zero?"],
  ["help", "How do I enable automatic top-up?"],
  // the first question's words but "my": Jaccard 10/11 = 0.91, merged with it
  ["shop", "How long is the grace period when the balance reaches zero?"],
  ["help", "How are invoice numbers built?"],
  ["shop", "What port does managed PostgreSQL listen on?"],
];

let home: string;
let serve: ChildProcess;
const top = new Map<string, string>();

beforeAll(async () => {
  home = await mkdtemp(path.join(tmpdir(), "ragmeter-draft-traffic-"));
  serve = spawn(process.execPath, [bin, "serve", "--port", "0", "--host", "127.0.0.1", "--quiet-ms", "300", "--home", home], {
    env: { PATH: process.env["PATH"] ?? "" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let log = "";
  const otlp = await new Promise<string>((resolve, reject) => {
    serve.stderr?.on("data", (d: Buffer) => {
      log += d.toString();
      const m = /"otlp":"(http:\/\/[^"]+)"/u.exec(log);
      if (m) resolve(m[1] as string);
    });
    serve.on("exit", (c) => reject(new Error(`serve exited with ${c}: ${log}`)));
  });
  const services = {
    shop: await startSampleServeChild({ OTEL_EXPORTER_OTLP_ENDPOINT: otlp, OTEL_SERVICE_NAME: "shop", OTEL_LOG_LEVEL: "none" }),
    help: await startSampleServeChild({ OTEL_EXPORTER_OTLP_ENDPOINT: otlp, OTEL_SERVICE_NAME: "help", OTEL_LOG_LEVEL: "none" }),
  };
  for (const [service, question] of ASKED) {
    const r = await fetch(services[service].url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ question }) });
    top.set(question, ((await r.json()) as { contexts: { document_id: string }[] }).contexts[0]?.document_id ?? "");
    await new Promise((res) => setTimeout(res, 20)); // distinct capture times
  }
  await Promise.all([services.shop.stop(), services.help.stop()]); // flushes their span processors
  for (;;) {
    const r = spawnSync(process.execPath, [bin, "live", "--json", "--home", home, "--since", "1h"], { encoding: "utf8", env: { PATH: process.env["PATH"] ?? "" } });
    if (r.status === 0 && (JSON.parse(r.stdout) as { traces_seen: number }).traces_seen >= ASKED.length) break;
    await new Promise((res) => setTimeout(res, 300));
  }
  const exited = new Promise((r) => serve.once("exit", r));
  serve.kill("SIGTERM");
  await exited;
}, 180_000);

afterAll(async () => {
  if (serve && serve.exitCode === null) serve.kill("SIGTERM");
  await rm(home, { recursive: true, force: true });
});

describe("golden draft --from-traffic", () => {
  it("drafts distinct questions, near-duplicates merged, over both services, each with the top retrieved document", async () => {
    const out = path.join(home, "draft.jsonl");
    const r = await cli(["golden", "draft", "--from-traffic", "--home", home, "--out", out]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain("4 questions drawn from 5 distinct captured questions (1 near-duplicates merged into 4 groups) over 2 services: help, shop");
    const text = await readFile(out, "utf8");
    const set = await parseGoldenSet(text, out);
    // capture times are the scorer's (spans exported in batches): compare without order; of the merged
    // pair, the wording captured last is kept
    const got = set.items.map((i) => [i.question, i.expected_source, i.tags, i.unconfirmed] as const);
    const row = (a: (typeof ASKED)[number]) => [a[1], top.get(a[1]), ["drafted:traffic", `service:${a[0]}`], true] as const;
    const grace = got.filter(([q]) => q === ASKED[0]?.[1] || q === ASKED[2]?.[1]);
    expect(grace).toHaveLength(1);
    const kept = ASKED.find((a) => a[1] === grace[0]?.[0]) as (typeof ASKED)[number];
    const byQuestion = (x: readonly unknown[], y: readonly unknown[]) => String(x[0]).localeCompare(String(y[0]));
    expect([...got].sort(byQuestion)).toEqual([kept, ASKED[1], ASKED[3], ASKED[4]].map((a) => row(a as (typeof ASKED)[number])).sort(byQuestion));
    expect(set.items.every((i) => i.expected_substring !== null && i.expected_substring.split(" ").length >= 3)).toBe(true);
    expect(text).toContain("asked 2× in near-identical words");

    const check = await cli(["golden", "check", out]);
    expect(check.code, check.out).toBe(0);
    expect(check.out).toContain("duplicate questions: none");
    expect(check.err).toContain("warning: 4 of 4 items unconfirmed");
  }, 60_000);

  it("takes --service and --n: one service's questions, spread over its time", async () => {
    const out = path.join(home, "shop.jsonl");
    const r = await cli(["golden", "draft", "--from-traffic", "--service", "shop", "--since", "1d", "--n", "1", "--home", home, "--out", out]);
    expect(r.code, r.err).toBe(0);
    const set = await parseGoldenSet(await readFile(out, "utf8"), out);
    expect(set.items).toHaveLength(1);
    expect(ASKED.filter((a) => a[0] === "shop").map((a) => a[1])).toContain(set.items[0]?.question);
    expect(set.items[0]?.tags).toEqual(["drafted:traffic", "service:shop"]);
  }, 60_000);

  it("says so when nothing was captured", async () => {
    const r = await cli(["golden", "draft", "--from-traffic", "--service", "nobody", "--home", home, "--out", path.join(home, "none.jsonl")]);
    expect(r.code).toBe(2);
    expect(r.err.trim()).toBe(
      'ragmeter: golden draft: no captured question of service "nobody" with retrieved documents in the store (live traffic with content capture on: see `ragmeter serve`)',
    );
  }, 60_000);
});
