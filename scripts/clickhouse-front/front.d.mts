// Types of scripts/clickhouse-front/front.mjs for TypeScript callers (tests).
export interface ClickHouseFront {
  /** http://host:port, for CLICKHOUSE_URL. */
  readonly url: string;
  /** The engine's version (`SELECT version()`). */
  readonly version: string;
  /** Requests answered and of them failed, so far. */
  readonly stats: { requests: number; errors: number };
  close(): Promise<void>;
}
export declare function startClickHouseFront(options: { dataDir: string; host?: string; port?: number; sessions?: number; log?: (msg: string) => void }): Promise<ClickHouseFront>;
