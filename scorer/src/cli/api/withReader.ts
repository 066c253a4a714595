import { openStore } from "@ragmeter/store/client";
import { readStoreLock } from "@ragmeter/store/lock";
import { runtimeTuning } from "@ragmeter/tuning";
import { commandConfig, type Io } from "../context.js";
import { httpReader } from "./httpReader.js";
import { type Reader, storeReader } from "./reader.js";

/**
 * Runs `fn` with a reader (design §3): on the embedded store owned by a live process whose lock
 * file records a read API URL (`serve`, `scorer`), that API over HTTP with the collector's bearer
 * token (`RAGMETER_COLLECTOR_TOKEN`); otherwise the store itself, opened and closed around `fn`
 * (a ClickHouse server with CLICKHOUSE_URL, or an embedded store nobody owns).
 */
export async function withReader<T>(io: Io, flags: { home?: string }, fn: (reader: Reader) => Promise<T>): Promise<T> {
  const config = commandConfig(io, flags);
  if (config.store.kind === "embedded") {
    const lock = readStoreLock(config.store.home);
    if (lock?.alive && lock.apiUrl !== null && lock.pid !== process.pid) return fn(httpReader(lock.apiUrl, config.collectorToken ?? undefined));
  }
  const store = await openStore(config.store, { runtimeTuning: runtimeTuning(config.runtimeTuning) });
  try {
    return await fn(storeReader(store, config.prices));
  } finally {
    await store.close();
  }
}
