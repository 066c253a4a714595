import { chunkHash } from "@ragmeter/core/domain/chunkHash";
import { z } from "zod";
import type { Store } from "./client.js";

/** Hashes per statement: a bound parameter list well below ClickHouse's query size limits. */
const PER_QUERY = 5000;

const firstSeenRow = z.object({ chunk_hash: z.string(), first_seen: z.coerce.number() });
const textRow = z.object({ chunk_hash: z.string(), text: z.string() });

/**
 * Writes the distinct non-blank chunk texts of `items` to `chunks` (last_seen = `now`, first_seen
 * carried over from a row already stored, else `now`), under `version`. A chunk this handle wrote
 * within `RECENT_CHUNK_MS` (with the same document id, or `document_id` '' = unknown) is not
 * written again (`store.recentChunks`). Writing the same texts again is harmless (one row per hash).
 * An item's `chunk_hash`, when the caller has it, is its text's {@link chunkHash} (not computed again).
 */
export async function saveChunks(
  store: Store,
  items: readonly { readonly text: string; readonly document_id: string; readonly chunk_hash?: string }[],
  version: number,
  now: number,
): Promise<void> {
  const recent = store.recentChunks;
  // Keyed by database too: copies of a handle on another database share its memory (tests do).
  const db = store.database;
  const byHash = new Map<string, { text: string; document_id: string }>();
  for (const it of items) {
    const h = it.chunk_hash ?? chunkHash(it.text);
    if (h === "" || byHash.has(h) || recent.fresh(`${db}.${h}`, it.document_id, now)) continue;
    byHash.set(h, { text: it.text, document_id: it.document_id === "" ? recent.documentIdOf(`${db}.${h}`) : it.document_id });
  }
  if (byHash.size === 0) return;
  const hashes = [...byHash.keys()];
  const stored = await storedFirstSeen(store, hashes);
  const rows = [...byHash].map(([h, c]) => ({ h, c, firstSeen: stored.get(h) ?? now }));
  store.chunkPresence?.wrote(db, hashes);
  await store.client.insert({
    table: `${db}.chunks`,
    columns: ["chunk_hash", "text", "document_id", "first_seen", "last_seen", "version"],
    values: rows.map((r) => [r.h, r.c.text, r.c.document_id, r.firstSeen, now, version]),
    format: "JSONCompactEachRow",
  });
  recent.wrote(
    rows.map((r) => [`${db}.${r.h}`, r.c.document_id, r.firstSeen] as const),
    now,
  );
}

/**
 * The `first_seen` of those of `hashes` that `chunks` holds. On an embedded store (`Store.chunkPresence`)
 * a hash this handle wrote keeps the `first_seen` it wrote (`RecentChunks`), and a hash the store
 * surely does not hold is not looked up: in `serve`, most writes then need no look-up, which was a
 * statement of 11 ms in each span write's 40 (bench:phoenix, issue 38). The others are read.
 */
async function storedFirstSeen(store: Store, hashes: readonly string[]): Promise<Map<string, number>> {
  const db = store.database;
  const presence = store.chunkPresence;
  const firstSeen = new Map<string, number>();
  let lookUp: string[] = [...hashes];
  if (presence !== null) {
    // The stored hashes are read once per database, in the background; until then every hash is looked up.
    presence.load(db, (after) => storedHashesAfter(store, after)).catch(() => undefined);
    lookUp = [];
    for (const h of hashes) {
      const known = store.recentChunks.firstSeenOf(`${db}.${h}`);
      if (known !== undefined) firstSeen.set(h, known);
      else if (presence.mayHold(db, h)) lookUp.push(h);
    }
  }
  for (let i = 0; i < lookUp.length; i += PER_QUERY) {
    const rs = await store.client.query({
      query: `SELECT chunk_hash, toUnixTimestamp64Milli(min(first_seen)) AS first_seen FROM ${db}.chunks WHERE chunk_hash IN {hashes:Array(String)} GROUP BY chunk_hash`,
      query_params: { hashes: lookUp.slice(i, i + PER_QUERY) },
      format: "JSONEachRow",
    });
    for (const r of await rs.json<unknown>()) {
      const x = firstSeenRow.parse(r);
      firstSeen.set(x.chunk_hash, x.first_seen);
    }
  }
  return firstSeen;
}

/** Hashes per page of {@link storedHashesAfter}. */
const HASH_PAGE = 50_000;

/** The stored chunk hashes above `after`, in order, at most {@link HASH_PAGE} (a row per part that holds one: a hash may repeat). */
async function storedHashesAfter(store: Store, after: string): Promise<string[]> {
  const rs = await store.client.query({
    query: `SELECT chunk_hash FROM ${store.database}.chunks WHERE chunk_hash > {after:String} ORDER BY chunk_hash LIMIT ${HASH_PAGE}`,
    query_params: { after },
    format: "JSONCompactEachRow",
  });
  return (await rs.json<[string]>()).map((r) => r[0]);
}

/** The stored text of each of `hashes` found in `chunks` (blank hashes skipped). */
export async function chunkTexts(store: Store, hashes: Iterable<string>): Promise<Map<string, string>> {
  const wanted = [...new Set(hashes)].filter((h) => h !== "");
  const out = new Map<string, string>();
  for (let i = 0; i < wanted.length; i += PER_QUERY) {
    const rs = await store.client.query({
      query: `SELECT chunk_hash, any(text) AS text FROM ${store.database}.chunks WHERE chunk_hash IN {hashes:Array(String)} GROUP BY chunk_hash`,
      query_params: { hashes: wanted.slice(i, i + PER_QUERY) },
      format: "JSONEachRow",
    });
    for (const r of await rs.json<unknown>()) {
      const x = textRow.parse(r);
      out.set(x.chunk_hash, x.text);
    }
  }
  return out;
}

/**
 * Rows whose retrieved items carry their text again: item i of a row takes the stored text of the
 * row's `chunk_hashes[i]` when it has one (an interaction written before `chunks` keeps its text in
 * `retrieved` and has no hashes).
 * @throws Error when a hash has no stored chunk (the store lost a chunk a kept interaction refers to).
 */
export async function withChunkTexts<R extends { readonly chunk_hashes: readonly string[]; readonly retrieved: readonly { readonly text: string }[] }>(
  store: Store,
  rows: readonly R[],
): Promise<R[]> {
  const texts = await chunkTexts(
    store,
    rows.flatMap((r) => r.chunk_hashes),
  );
  return rows.map((r) => {
    if (r.chunk_hashes.length === 0) return r;
    const retrieved = r.retrieved.map((item, i) => {
      const h = r.chunk_hashes[i] ?? "";
      if (h === "") return item;
      const text = texts.get(h);
      if (text === undefined) throw new Error(`chunks: no stored text for hash ${h} (retrieved item ${i})`);
      return { ...item, text };
    });
    return { ...r, retrieved };
  });
}
