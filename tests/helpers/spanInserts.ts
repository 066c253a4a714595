import type { Store } from "../../store/src/client.js";

/**
 * `store` with its second connection wrapped so that every insert into the spans table records how
 * many rows it carried (−1 when the values are not an array): the writes a scorer made, counted.
 */
export function countingSpanInserts<S extends Store>(store: S): { store: S; spanInserts: number[] } {
  const spanInserts: number[] = [];
  const counting: S = {
    ...store,
    secondClient: async () => {
      const c = await store.secondClient();
      return new Proxy(c, {
        get(target, prop, receiver) {
          if (prop === "insert")
            return (p: Parameters<typeof c.insert>[0]) => {
              if (p.table.endsWith(".spans")) spanInserts.push(Array.isArray(p.values) ? p.values.length : -1);
              return target.insert(p);
            };
          const v: unknown = Reflect.get(target, prop, receiver);
          return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
        },
      });
    },
  };
  return { store: counting, spanInserts };
}
