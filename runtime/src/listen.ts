/**
 * Who can reach a listening socket (issue 39, closed by default): the collector, `serve`'s read API,
 * `scorer --api-port` and `eval --via-traces`' receiver listen on loopback unless an address is
 * given; on any other address without a bearer token they warn at start, and the read API refuses.
 */
import { BlockList, isIPv6 } from "node:net";

/** The address every listener of ragmeter uses when none is given: loopback, this machine only. */
export const DEFAULT_LISTEN_HOST = "127.0.0.1";

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");

/**
 * True when `host` reaches this machine only: an address of 127.0.0.0/8, `::1` (also IPv4-mapped,
 * `::ffff:127.0.0.1`) or the name `localhost`. Every other name or address (`0.0.0.0`, `::`, an
 * interface's address, a host name) counts as reachable from the network.
 */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .replace(/^\[(.*)\]$/u, "$1")
    .toLowerCase();
  if (h === "localhost" || h === "localhost.") return true;
  try {
    return LOOPBACK.check(h, isIPv6(h) ? "ipv6" : "ipv4");
  } catch {
    return false; // not an IP address: a host name other than localhost
  }
}

/** The settings a warning about an open listener names. */
export interface ListenerSettings {
  /** Where the address comes from, e.g. `--host / RAGMETER_COLLECTOR_HOST`. */
  readonly host: string;
  /** The token's setting (`RAGMETER_COLLECTOR_TOKEN`), or null for a listener that takes none. */
  readonly token: string | null;
}

/** The collector's own settings: flag `--host`, variable `RAGMETER_COLLECTOR_HOST`, token `RAGMETER_COLLECTOR_TOKEN`. */
export const COLLECTOR_LISTENER: ListenerSettings = { host: "--host or RAGMETER_COLLECTOR_HOST", token: "RAGMETER_COLLECTOR_TOKEN" };

/**
 * The one line warned at start when `host` is not loopback and no token is set (null otherwise):
 * the address, what anyone who reaches it can do (`exposes`), and the settings that close it.
 */
export function openListenerWarning(host: string, tokenSet: boolean, exposes: string, settings: ListenerSettings = COLLECTOR_LISTENER): string | null {
  if (tokenSet || isLoopbackHost(host)) return null;
  const close =
    settings.token === null
      ? `listen on ${DEFAULT_LISTEN_HOST} (${settings.host})`
      : `set ${settings.token} (a bearer token clients must send) or listen on ${DEFAULT_LISTEN_HOST} (${settings.host})`;
  return `listening on ${host}, an address reachable from the network, without a token: anyone who can reach it ${exposes}; ${close}`;
}

/**
 * Why the read API refuses every request (403) when it listens on `host` without a token, or null
 * when it serves: it hands out captured questions, answers and chunks.
 */
export function readApiRefusal(host: string, tokenSet: boolean): string | null {
  if (tokenSet || isLoopbackHost(host)) return null;
  return `the read API serves captured questions, answers and chunks and listens on ${host}, an address reachable from the network, without a token: it refuses every request until RAGMETER_COLLECTOR_TOKEN is set (clients then send Authorization: Bearer <token>), or listen on ${DEFAULT_LISTEN_HOST} (--host)`;
}
