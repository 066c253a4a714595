/** The server's socket: listening, the base URL it answers on, and a graceful close bounded in time. */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { PinoLogger } from "@ragmeter/runtime";

/** Listens on `host:port`; rejects with the listen error (e.g. EADDRINUSE). */
export function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onError = (err: Error): void => reject(err);
    server.once("error", onError);
    server.listen(port, host, () => {
      server.off("error", onError);
      resolve();
    });
  });
}

/** Base URL of a listening address; 0.0.0.0 and :: are reported as 127.0.0.1, IPv6 hosts in brackets. */
export function baseUrlOf(address: Pick<AddressInfo, "address" | "port">, scheme: "http" | "https" = "http"): string {
  let host = address.address;
  if (host === "0.0.0.0" || host === "::") host = "127.0.0.1";
  return `${scheme}://${host.includes(":") ? `[${host}]` : host}:${address.port}`;
}

/**
 * Stops accepting and waits for the requests in flight; idle keep-alive connections close now, the
 * others after their response. Past `timeoutMs` every connection is closed.
 */
export async function closeServer(server: Server, timeoutMs: number, logger: PinoLogger): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections(); // keep-alive connections with no request: closed now; the others after their response
  await Promise.race([
    stopped,
    new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        logger.warn("shutdown timeout reached with requests still in flight");
        server.closeAllConnections();
        resolve();
      }, timeoutMs);
    }),
  ]).finally(() => clearTimeout(timer));
}
