import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "../../store/src/client.js";
import { cli } from "../helpers/cli.js";
import { contentOf, DAY, seed, traceIds } from "../helpers/retentionSeed.js";
import { rows } from "../helpers/streaming.js";

let home: string;
let seededAt: number;
beforeAll(async () => {
  home = await mkdtemp(path.join(tmpdir(), "ragmeter-forget-cli-"));
  seededAt = Date.now();
  await withOpen(async (s) => seed(s, seededAt));
});

/** Opens the embedded store of `home` (no retention), runs `fn`, closes it: the CLI opens it in between. */
async function withOpen<T>(fn: (s: Store) => Promise<T>): Promise<T> {
  const s = await openStore({ kind: "embedded", home, database: "ragmeter" });
  try {
    return await fn(s);
  } finally {
    await s.close();
  }
}

const everything = (s: Store) => contentOf(s, [...traceIds.oldA, ...traceIds.oldB, ...traceIds.recent]);
const allScores = (s: Store) => rows(s, "SELECT * FROM DB.scores FINAL ORDER BY trace_id, metric");

describe("ragmeter forget on the embedded store (real engine)", () => {
  it("--service --before --dry-run counts what the hand count says and changes nothing; then forget removes exactly that; by --trace-id too; a re-run finds nothing left", async () => {
    const before = await withOpen(async (s) => ({ content: await everything(s), scores: await allScores(s) }));
    const cutoff = new Date(seededAt - 5 * DAY).toISOString();
    const dry = await cli(["forget", "--service", "svc-a", "--before", cutoff, "--dry-run", "--json", "--home", home]);
    expect(dry.err).toBe("");
    expect(dry.code).toBe(0);
    // retentionSeed.ts: svc-a traces older than 5 days are A1 and A2 (R1 is 1 day old; B1 is svc-b).
    // spans A1 2 (one of them written in two versions) + A2 1; logs A1 1; interactions 2; claims A1 2 + A2 1; scores 2 + 2
    expect(JSON.parse(dry.out)).toEqual({ dry_run: true, traces: 2, spans: 3, logs: 1, interactions: 2, claims: 3, scores_kept: 4, trace_ids: [...traceIds.oldA] });
    await withOpen(async (s) => {
      expect(await everything(s)).toEqual(before.content);
      expect(await rows(s, "SELECT count() AS c FROM DB.forgotten_traces")).toEqual([{ c: "0" }]);
    });

    const real = await cli(["forget", "--service", "svc-a", "--before", cutoff, "--home", home]);
    expect(real.code).toBe(0);
    expect(real.out.split("\n")).toEqual([
      `forgot 2 traces in ${path.join(home, "store")} (embedded ClickHouse)`,
      "  spans               3  deleted",
      "  logs                1  deleted",
      "  interactions        2  blanked: question, answer, retrieved items (status, times, scores kept)",
      "  claims              3  blanked: claim text (verdicts kept)",
      "  scores              4  kept",
      "",
    ]);
    await withOpen(async (s) => {
      const after = await everything(s);
      expect(after.spans.map((x) => x.service_name)).toEqual(["svc-b", "svc-a", "svc-a"]); // B1, R1 ×2
      expect(after.logs).toHaveLength(1); // R1's
      expect(after.interactions.map((i) => [i.question === "", i.answer, i.n_retrieved, i.status])).toEqual([
        [true, null, "0", "ok"],
        [true, null, "0", "ok"],
        [false, "Refunds are possible within 30 days.", "1", "ok"],
        [false, "Refunds are possible within 30 days.", "1", "ok"],
      ]);
      expect(after.claims.map((c) => [c.claim === "", c.verdict])).toEqual([
        [true, "SUPPORTED"],
        [true, "UNSUPPORTED"],
        [true, "SUPPORTED"],
        [false, "SUPPORTED"],
      ]);
      expect(await allScores(s)).toEqual(before.scores);
      const tomb = await rows<{ trace_id: string; reason: string }>(s, "SELECT trace_id, reason FROM DB.forgotten_traces FINAL ORDER BY trace_id");
      expect(tomb).toEqual(traceIds.oldA.map((trace_id) => ({ trace_id, reason: `ragmeter forget --service svc-a --before ${cutoff}` })));
    });

    const byId = await cli(["forget", "--trace-id", (traceIds.oldB[0] as string).toUpperCase(), "--json", "--home", home]);
    expect(JSON.parse(byId.out)).toEqual({ dry_run: false, traces: 1, spans: 1, logs: 0, interactions: 1, claims: 0, scores_kept: 1, trace_ids: [...traceIds.oldB] });
    const again = await cli(["forget", "--service", "svc-a", "--before", cutoff, "--json", "--home", home]);
    expect(JSON.parse(again.out)).toMatchObject({ traces: 2, spans: 0, logs: 0, interactions: 0, claims: 0, scores_kept: 4 });
    expect(again.err).toBe("");
    // a mistyped service name or trace id forgets nothing: said on stderr, exit 0
    const typo = await cli(["forget", "--service", "svc-A", "--before", cutoff, "--home", home]);
    expect(typo.code).toBe(0);
    expect(typo.out.split("\n")[0]).toMatch(/^forgot 0 traces in /u);
    expect(typo.err).toBe(
      `ragmeter: forget: no trace of service "svc-A" before ${new Date(cutoff).toISOString()} (the service name is matched exactly; \`ragmeter live\` lists the services seen)\n`,
    );
    const unknownId = await cli(["forget", "--trace-id", "ab".repeat(16), "--home", home]);
    expect(unknownId.err).toBe("ragmeter: forget: nothing of the 1 trace id(s) is in the store (never stored here, or forgotten and gone)\n");
  });

  it("while another process owns the embedded store: one line, exit 2 (stop serve, or use a ClickHouse server)", async () => {
    await withOpen(async () => {
      const r = await cli(["forget", "--trace-id", traceIds.recent[0] as string, "--home", home]);
      expect(r.code).toBe(2);
      expect(r.err).toBe(`ragmeter: store in use by PID ${process.pid}: stop that process first, or use a ClickHouse server (CLICKHOUSE_URL) for several processes\n`);
    });
  });
});
