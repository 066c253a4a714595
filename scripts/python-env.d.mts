// Types of scripts/python-env.mjs for TypeScript callers (tests).
export declare const REQUIREMENTS: string;
export declare class PythonEnvError extends Error {}
export declare function pythonEnvDir(env?: Record<string, string | undefined>): string;
export interface PythonEnv {
  /** the interpreter of the environment */
  python: string;
  /** true when this call created it */
  created: boolean;
  /** seconds the creation took (0 when it existed) */
  seconds: number;
}
export declare function pythonEnv(options?: { env?: Record<string, string | undefined>; log?: (msg: string) => void }): PythonEnv;
