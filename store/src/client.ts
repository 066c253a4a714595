import path from "node:path";
import { type ClickHouseClient, createClient } from "@clickhouse/client";
import { abortRunningRuns } from "./aborted.js";
import { ChunkPresence } from "./chunkPresence.js";
import { versionClock } from "./clock.js";
import { applyEmbeddedTableSettings } from "./embeddedTables.js";
import { EmbeddedEngineMissingError } from "./errors.js";
import { type InjectedStoreWriteFault, withWriteFaults } from "./faults.js";
import { acquireStoreLock } from "./lock.js";
import { migrate } from "./migrations.js";
import { RecentChunks } from "./recentChunks.js";
import { applyRetention, type Retention } from "./retention.js";

/** Where the store lives. */
export type StoreTarget =
  | { readonly kind: "embedded"; readonly home: string; readonly database: string }
  | { readonly kind: "server"; readonly url: string; readonly username?: string; readonly password?: string; readonly database: string; readonly cluster?: string };

/** An open store: a `@clickhouse/client` client on the embedded engine or a server. */
export interface Store {
  readonly client: ClickHouseClient;
  readonly database: string;
  readonly target: StoreTarget;
  /** Human-readable location, e.g. `/home/me/proj/.ragmeter/store (embedded ClickHouse 26.7)`. */
  readonly location: string;
  /** The next row version (µs since the epoch, strictly increasing for this store). */
  readonly nextVersion: () => number;
  /** Runs marked `aborted` on opening (their process died while running them). */
  readonly abortedRuns: readonly string[];
  /** Records the owner's read API URL where other processes find it (the embedded store's lock file; no-op on a server). */
  readonly recordApiUrl: (url: string) => void;
  /**
   * Hands the memory the embedded engine has freed back to the operating system (`SYSTEM JEMALLOC
   * PURGE`): its allocator otherwise keeps the pages of every written batch, 150 MB and more over a
   * long run (issue 12). No-op on a server; never throws (memory is not worth failing a run for).
   */
  readonly releaseMemory: () => Promise<void>;
  /** What releasing the startup pages did, when the opening was asked to ({@link OpenStoreOptions.releaseStartupPages}). */
  readonly startupPages?: StartupPagesOutcome;
  /**
   * A client on a connection of its own, for a writer that should not wait behind `client`'s
   * statements (the streaming scorer's span ingestion beside its scoring loop): the embedded engine
   * runs one statement of a connection at a time, but the statements of two connections to its
   * data directory side by side. Opened on first use, with the session settings, and closed with the
   * store. On a server `client` itself (it already runs statements side by side).
   */
  readonly secondClient: () => Promise<ClickHouseClient>;
  /** Chunks written through this handle lately (shared by the copies a caller makes with another client). */
  readonly recentChunks: RecentChunks;
  /**
   * The databases whose `forgotten_traces` this handle found empty (`forgottenAmong`), shared by the
   * copies a caller makes of it: an embedded store's, whose lock keeps every other writer out and
   * whose own `forget` drops the mark; null on a server, where another process may forget at any time.
   */
  readonly noneForgotten: Set<string> | null;
  /** The chunk hashes an embedded store may hold (`saveChunks` looks up only those); null on a server. */
  readonly chunkPresence: ChunkPresence | null;
  close(): Promise<void>;
}

type ClientConnection = NonNullable<NonNullable<Parameters<typeof createClient>[0]>["connection"]>;

/** Settings on every query: UInt64 as strings (exact), UTC times. */
const SETTINGS = { output_format_json_quote_64bit_integers: 1, date_time_input_format: "best_effort" } as const;

/**
 * The settings of a server store's client: {@link SETTINGS}, and on a cluster (`CLICKHOUSE_CLUSTER`)
 * `distributed_foreground_insert = 1`: an insert into a `Distributed` table returns once the shards
 * hold its rows, not when the node queued them for later, so a scorer that reads a trace back right
 * after writing its spans (design §6) finds them, and a committed Kafka offset means stored rows.
 */
export function serverSettings(cluster: string | undefined): Record<string, string | number> {
  return cluster === undefined ? { ...SETTINGS } : { ...SETTINGS, distributed_foreground_insert: 1 };
}

/** `SET a = 1, b = 'x'`: the settings as one statement, string values quoted as ClickHouse literals. */
function sessionSettingsStatement(settings: Readonly<Record<string, string | number>>): string {
  const literal = (v: string | number): string => (typeof v === "number" ? String(v) : `'${v.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`);
  return `SET ${Object.entries(settings)
    .map(([name, value]) => `${name} = ${literal(value)}`)
    .join(", ")}`;
}

/** Options of {@link openStore}. */
/** What releasing the startup pages did (the shape of @ragmeter/tuning's ReleaseOutcome). */
type StartupPagesOutcome =
  | { readonly status: "released"; readonly releasedMiB: number; readonly mappings: number; readonly failed: number }
  | { readonly status: "unavailable"; readonly reason: string };

/** The process tuning a store's opening applies (@ragmeter/tuning's RuntimeTuning satisfies it). */
interface StoreTuning {
  tuneEmbeddedAllocator(): void;
  releaseStartupPages(): Promise<StartupPagesOutcome>;
}

export interface OpenStoreOptions {
  /**
   * Retention of captured content to apply on opening (design §13): the content tables' TTLs are
   * brought to it (removed where it is null). Absent: the TTLs are left as they are (readers).
   */
  readonly retention?: Retention;
  /**
   * Once open, return this process's startup pages (@ragmeter/runtime releaseStartupPages): the
   * embedded engine's initialisation alone touches about 150 MiB of libchdb.so that later queries
   * mostly do not use. The outcome is the store's {@link Store.startupPages}.
   */
  readonly releaseStartupPages?: boolean;
  /**
   * The process's runtime tuning (RAGMETER_RUNTIME_TUNING, read where the process starts; the entry
   * points pass @ragmeter/tuning's `runtimeTuning`): the embedded engine's allocator settings and the
   * release of startup pages. Absent: neither is done (the store itself loads no native FFI).
   */
  readonly runtimeTuning?: StoreTuning;
  /**
   * The engine loads (or the server is contacted) once this settles, either way; the embedded
   * store's lock is taken at once all the same. `eval` lets its target client thread load first:
   * the engine's load blocks the main thread for 100–200 ms, and only that thread then keeps the
   * target busy (issue 12).
   */
  readonly after?: Promise<unknown>;
  /**
   * Test-only fault injection (`RAGMETER_FAULT_STORE_WRITE_EVERY`, design §10): one insert in this
   * many, over the store's connections, fails with a retriable InjectedStoreWriteFault before it
   * reaches the engine. Absent (always, outside tests and bench:soak): the clients are not wrapped.
   */
  readonly faultStoreWriteEvery?: number;
  /** Sees each injected fault (the CLI logs it, so bench:soak counts them). */
  readonly onStoreWriteFault?: (fault: InjectedStoreWriteFault) => void;
}

/**
 * Opens the store, applies pending migrations and, when asked, the retention TTLs.
 * - `embedded`: takes the single-owner lock of `home` (design §3), then opens chdb's engine on
 *   `<home>/store` through `@clickhouse/client` with `chdb/connection`. `chdb` is loaded only here.
 * - `server`: a ClickHouse server over HTTP.
 * @throws StoreInUseError, EmbeddedEngineMissingError, or the client's error when the server is
 *   unreachable.
 */
export async function openStore(target: StoreTarget, options: OpenStoreOptions = {}): Promise<Store> {
  return startOpeningStore(target, options);
}

/**
 * {@link openStore} in two steps: the embedded store's single-owner lock is taken (or refused)
 * before this returns, the rest (loading the engine, migrations) goes on in the returned promise, so
 * a caller can do other work meanwhile (`eval` asks its first questions, issue 12) and still fails
 * at once on a store another process owns.
 * @throws StoreInUseError synchronously; the promise rejects as {@link openStore} does.
 */
export function startOpeningStore(target: StoreTarget, options: OpenStoreOptions = {}): Promise<Store> {
  // `after` never rejects here: the store opens once it has settled, either way.
  const after = options.after?.catch(() => undefined) ?? Promise.resolve();
  let opening: Promise<Store>;
  if (target.kind === "server") opening = after.then(() => openServerStore(target, options));
  else {
    const lock = acquireStoreLock(target.home);
    opening = after.then(() => openEmbeddedStore(target, options, lock));
  }
  const every = options.faultStoreWriteEvery;
  if (every !== undefined) opening = opening.then((store) => withWriteFaults(store, every, options.onStoreWriteFault));
  const tuning = options.runtimeTuning;
  if (options.releaseStartupPages !== true || tuning === undefined) return opening;
  return opening.then(async (store) => ({ ...store, startupPages: await tuning.releaseStartupPages() }));
}

async function openServerStore(target: Extract<StoreTarget, { kind: "server" }>, options: OpenStoreOptions): Promise<Store> {
  const client = createClient({
    url: target.url,
    ...(target.username !== undefined ? { username: target.username } : {}),
    ...(target.password !== undefined ? { password: target.password } : {}),
    clickhouse_settings: serverSettings(target.cluster),
  });
  try {
    await migrate(client, target.database, target.cluster ?? null);
    if (options.retention) await applyRetention(client, target.database, target.cluster ?? null, options.retention);
  } catch (err) {
    await client.close();
    throw err;
  }
  const server: Store = {
    client,
    database: target.database,
    target,
    location: `${target.url} database ${target.database}`,
    nextVersion: versionClock(),
    abortedRuns: [],
    recordApiUrl: () => {},
    releaseMemory: async () => {},
    secondClient: async () => client,
    recentChunks: new RecentChunks(),
    noneForgotten: null,
    chunkPresence: null,
    close: () => client.close(),
  };
  return server;
}

async function openEmbeddedStore(target: Extract<StoreTarget, { kind: "embedded" }>, options: OpenStoreOptions, lock: ReturnType<typeof acquireStoreLock>): Promise<Store> {
  try {
    let mod: typeof import("chdb/connection");
    // Read by the engine's allocator when chdb loads (below): only the first store opened in a process counts.
    options.runtimeTuning?.tuneEmbeddedAllocator();
    try {
      mod = await import("chdb/connection");
    } catch (err) {
      throw new EmbeddedEngineMissingError(err);
    }
    const dataDir = path.resolve(target.home, "store");
    // chdb types its connection against its own copy of @clickhouse/client-common; the shapes are
    // the same contract (chdb's README), so the cast only bridges two copies of one interface.
    const connection = mod.createChdbConnection({ path: dataDir }) as unknown as ClientConnection;
    // The settings once for the engine's session, where they hold for every later query: as
    // per-query settings chdb/connection sends them as `SET …;` statements before each query, ≈ 2.4
    // ms of engine CPU per query (an 800-row insert 13.0 → 10.6 ms; issue 12).
    const client = createClient({ connection });
    await client.command({ query: sessionSettingsStatement(SETTINGS) });
    await migrate(client, target.database);
    await applyEmbeddedTableSettings(client, target.database);
    if (options.retention) await applyRetention(client, target.database, null, options.retention);
    const nextVersion = versionClock();
    // This process owns the store now: a run still `running` belongs to a process that died.
    const reason =
      lock.tookOverFrom !== null
        ? `the process that ran it (PID ${lock.tookOverFrom}) died; its lock was taken over by PID ${process.pid}`
        : `the process that ran it ended without completing it; found by PID ${process.pid}`;
    const abortedRuns = await abortRunningRuns(client, target.database, reason, Date.now(), nextVersion());
    let closed = false;
    let second: Promise<ClickHouseClient> | null = null;
    const store: Store = {
      client,
      database: target.database,
      target,
      location: `${dataDir} (embedded ClickHouse)`,
      nextVersion,
      abortedRuns,
      recordApiUrl: (url) => lock.setApiUrl(url),
      releaseMemory: () =>
        client.command({ query: "SYSTEM JEMALLOC PURGE" }).then(
          () => undefined,
          () => undefined,
        ),
      secondClient: () => {
        second ??= (async () => {
          const c = createClient({ connection: mod.createChdbConnection({ path: dataDir }) as unknown as ClientConnection });
          // Session settings hold per connection.
          await c.command({ query: sessionSettingsStatement(SETTINGS) });
          return c;
        })();
        return second;
      },
      recentChunks: new RecentChunks(),
      noneForgotten: new Set<string>(),
      chunkPresence: new ChunkPresence(),
      async close() {
        if (closed) return;
        closed = true;
        try {
          if (second !== null) await (await second.catch(() => null))?.close();
          await client.close();
        } finally {
          lock.release();
        }
      },
    };
    return store;
  } catch (err) {
    lock.release();
    throw err;
  }
}
