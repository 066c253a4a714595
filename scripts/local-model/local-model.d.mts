// Types of scripts/local-model/local-model.mjs for TypeScript callers (bench, tests).
export declare class LocalModelError extends Error {}
export type LocalModelKey = "0.5b" | "1.5b";
export interface LocalModelOptions {
  env?: Record<string, string | undefined>;
  /** 0.5b or 1.5b (default: RAGMETER_LOCAL_MODEL, else 0.5b) */
  model?: LocalModelKey;
  log?: (msg: string) => void;
  timeoutMs?: number;
  /** startLocalModel only: install first when not installed (default true; false throws instead). */
  install?: boolean;
}
export interface LocalModelServer {
  status: "started" | "running";
  pid: number;
  port: number;
  /** http://127.0.0.1:PORT/v1, for OPENAI_BASE_URL */
  baseURL: string;
  /** the served model name, for RAGMETER_JUDGE_MODEL */
  model: string;
  key: LocalModelKey;
  ctx: number;
  threads: number;
  /** ms from spawn until /health answered 200 */
  loadMs: number;
  startedAt: string;
  log: string;
}
export interface LocalModelInstall {
  server: { package: string; seconds: number; at: string };
  model: { package: string; bytes: number; sha256: string; seconds: number; at: string };
  /** seconds this call took (0 when both were installed) */
  seconds: number;
  python: string;
  modelFile: string;
}
export interface LocalModelSpec {
  key: LocalModelKey;
  alias: string;
  file: string;
  package: string;
  version: string;
  bytes: number;
  sha256: string;
  licence: string;
  parts: string[];
}
export declare const SERVER_PACKAGE: { name: string; version: string; sha256: string; licence: string };
export declare const MODELS: Record<LocalModelKey, LocalModelSpec>;
export declare const DEFAULT_MODEL: LocalModelKey;
export declare function localModelSettings(
  env?: Record<string, string | undefined>,
  modelKey?: LocalModelKey,
): {
  base: string;
  model: LocalModelSpec;
  serverDir: string;
  python: string;
  modelDir: string;
  modelFile: string;
  stateDir: string;
  stateFile: string;
  logFile: string;
  port: number;
  ctx: number;
  threads: number;
  startTimeoutMs: number;
  pythonBase: string;
};
export declare function judgeSettings(server: { baseURL: string; model: string; ctx: number }): Record<string, string>;
export declare function localModelInstalled(options?: LocalModelOptions): boolean;
export declare function installLocalModel(options?: LocalModelOptions): Promise<LocalModelInstall>;
export declare function startLocalModel(options?: LocalModelOptions): Promise<LocalModelServer>;
export declare function stopLocalModel(options?: LocalModelOptions): Promise<{ status: "stopped" | "not-running" }>;
export declare function localModelStatus(options?: LocalModelOptions): Promise<{
  installed: boolean;
  running: boolean;
  answering: boolean;
  model: string;
  pid?: number;
  port?: number;
  baseURL?: string;
  ctx?: number;
  threads?: number;
  stateFile: string;
}>;
