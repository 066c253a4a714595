// Types of scripts/local-model/local-model.mjs for TypeScript callers (bench, tests).
export declare class LocalModelError extends Error {}
export interface LocalModelOptions {
  env?: Record<string, string | undefined>;
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
  ctx: number;
  threads: number;
  /** ms from spawn until /health answered 200 */
  loadMs: number;
  startedAt: string;
  log: string;
}
export interface LocalModelInstall {
  server: { package: string; buildSeconds: number; bytes: number; at: string };
  model: { package: string; seconds: number; bytes: number; at: string };
  bytes: number;
  serverBin: string;
  modelFile: string;
}
export declare const MODEL_ALIAS: string;
export declare const SERVER_PACKAGE: { name: string; version: string; file: string; sha256: string; licence: string };
export declare const MODEL_PACKAGE: { name: string; version: string; file: string; sha256: string; gguf: string; licence: string };
export declare function localModelSettings(env?: Record<string, string | undefined>): {
  base: string;
  serverDir: string;
  modelDir: string;
  serverBin: string;
  modelFile: string;
  stateDir: string;
  stateFile: string;
  logFile: string;
  port: number;
  ctx: number;
  threads: number;
  startTimeoutMs: number;
  buildJobs: number;
};
export declare function checkPrerequisites(needBuild?: boolean): { python: string; cxx?: string; cc?: string; ninja?: boolean };
export declare function localModelInstalled(options?: LocalModelOptions): boolean;
export declare function installLocalModel(options?: LocalModelOptions): Promise<LocalModelInstall>;
export declare function startLocalModel(options?: LocalModelOptions): Promise<LocalModelServer>;
export declare function stopLocalModel(options?: LocalModelOptions): Promise<{ status: "stopped" | "not-running" }>;
export declare function localModelStatus(options?: LocalModelOptions): Promise<{
  installed: boolean;
  running: boolean;
  answering: boolean;
  pid?: number;
  port?: number;
  baseURL?: string;
  model?: string;
  ctx?: number;
  stateFile: string;
}>;
