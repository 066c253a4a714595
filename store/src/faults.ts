import type { ClickHouseClient } from "@clickhouse/client";
import { StoreError } from "./errors.js";

/**
 * A store write failed on purpose (`RAGMETER_FAULT_STORE_WRITE_EVERY`, test-only, design §10):
 * retriable, as a lost connection or an overloaded engine would be, so the callers' retry paths run.
 */
export class InjectedStoreWriteFault extends StoreError {
  override readonly name = "InjectedStoreWriteFault";
  constructor(
    readonly write: number,
    readonly every: number,
    readonly table: string,
  ) {
    super(`injected store write fault: write ${write} (${table}) failed (RAGMETER_FAULT_STORE_WRITE_EVERY=${every}, test only)`, true, { code: "unavailable" });
  }
}

/** What {@link withWriteFaults} wraps: a store's client and the second connection it opens. */
interface Clients {
  readonly client: ClickHouseClient;
  secondClient(): Promise<ClickHouseClient>;
}

/**
 * Fault injection of store writes (test-only, design §10): `store` with one insert in `every`,
 * counted over its client and every second connection it opens (one count), rejected with an
 * {@link InjectedStoreWriteFault} before it reaches the engine (nothing of it is written);
 * `onFault` sees each one. Other methods are the clients' own.
 */
export function withWriteFaults<S extends Clients>(store: S, every: number, onFault?: (fault: InjectedStoreWriteFault) => void): S {
  if (!Number.isInteger(every) || every < 2) throw new RangeError(`store write fault period must be an integer ≥ 2, got ${every}`);
  let writes = 0;
  const wrap = (client: ClickHouseClient): ClickHouseClient => {
    const insert: ClickHouseClient["insert"] = (params) => {
      writes += 1;
      if (writes % every === 0) {
        const fault = new InjectedStoreWriteFault(writes, every, params.table);
        onFault?.(fault);
        return Promise.reject(fault);
      }
      return client.insert(params);
    };
    return new Proxy(client, {
      get(target, prop, receiver) {
        if (prop === "insert") return insert;
        const v: unknown = Reflect.get(target, prop, receiver);
        return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
  };
  const second = store.secondClient.bind(store);
  return { ...store, client: wrap(store.client), secondClient: async () => wrap(await second()) };
}
