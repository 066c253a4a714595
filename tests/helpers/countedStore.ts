import type { Store } from "../../store/src/client.js";

/** A copy of `store` whose client counts its statements (query, insert, command, exec), as the scorer makes a copy per connection. */
export function countedStore(store: Store): { store: Store; statements: () => number } {
  let n = 0;
  const client = new Proxy(store.client, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (typeof v !== "function" || !["query", "insert", "command", "exec"].includes(String(prop))) return v;
      return (...args: unknown[]) => {
        n++;
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store: { ...store, client }, statements: () => n };
}
