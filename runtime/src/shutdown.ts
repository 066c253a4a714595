/** Waiting for the end of a long-running command: SIGTERM, SIGINT or an abort signal. */

/**
 * Resolves with the reason (`SIGTERM`, `SIGINT` or `abort`) at the first of SIGTERM, SIGINT or
 * `signal` aborting, and removes its listeners then (a second signal gets Node's default action).
 */
export function untilShutdown(signal?: AbortSignal): Promise<string> {
  return new Promise((resolve) => {
    const stop = (why: string): void => {
      process.off("SIGTERM", onTerm);
      process.off("SIGINT", onInt);
      signal?.removeEventListener("abort", onAbort);
      resolve(why);
    };
    const onTerm = (): void => stop("SIGTERM");
    const onInt = (): void => stop("SIGINT");
    const onAbort = (): void => stop("abort");
    process.once("SIGTERM", onTerm);
    process.once("SIGINT", onInt);
    if (signal?.aborted) stop("abort");
    else signal?.addEventListener("abort", onAbort, { once: true });
  });
}
