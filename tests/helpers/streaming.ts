import type { BytesProducer } from "../../kafka/src/index.js";
import { SIGNAL_HEADER } from "../../otlp/src/index.js";
import type { Store } from "../../store/src/client.js";

/** Sleeps `ms` milliseconds. */
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Two retrieved chunks of a fixed RAG answer: the first holds "port 5432". */
export const DOCS = [
  { id: "kb/ports.md#1", document_id: "kb/ports.md", content: "Managed PostgreSQL listens on port 5432.", score: 2 },
  { id: "kb/tls.md#2", document_id: "kb/tls.md", content: "Connections require TLS 1.2 or newer.", score: 1 },
];

/** Produces one record as the collector writes it (key = trace id, header ragmeter-signal). */
export function sender(producer: BytesProducer) {
  return (topic: string, key: string, value: Uint8Array | Buffer, signal = "traces") =>
    producer.send({ messages: [{ topic, key: Buffer.from(key), value: Buffer.from(value), headers: new Map([[Buffer.from(SIGNAL_HEADER), Buffer.from(signal)]]) }] });
}

/** Runs `query` with `DB.` replaced by the store's database; returns the rows. */
export async function rows<T>(store: Store, query: string, params: Record<string, unknown> = {}): Promise<T[]> {
  const rs = await store.client.query({ query: query.replaceAll("DB.", `${store.database}.`), query_params: params, format: "JSONEachRow" });
  return rs.json<T>();
}

/** Polls `check` every 200 ms until it holds; throws after `timeoutMs`. */
export async function waitFor(check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return;
    await sleep(200);
  }
  throw new Error("timed out waiting");
}
