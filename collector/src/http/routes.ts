/** Which of the collector's routes a request goes to. */
import type { Signal } from "@ragmeter/otlp";

export type Route = { kind: "export"; signal: Signal } | { kind: "healthz" } | { kind: "readyz" } | { kind: "other"; method: string; path: string };

/** Path of a request target without its query string. */
function pathOf(url: string | undefined): string {
  const u = url ?? "/";
  const q = u.indexOf("?");
  return q < 0 ? u : u.slice(0, q);
}

/** POST /v1/traces and /v1/logs, GET|HEAD /healthz and /readyz; anything else is `other`. */
export function routeOf(method: string | undefined, url: string | undefined): Route {
  const path = pathOf(url);
  const m = method ?? "GET";
  if (m === "POST" && (path === "/v1/traces" || path === "/v1/logs")) return { kind: "export", signal: path === "/v1/traces" ? "traces" : "logs" };
  const get = m === "GET" || m === "HEAD";
  if (get && path === "/healthz") return { kind: "healthz" };
  if (get && path === "/readyz") return { kind: "readyz" };
  return { kind: "other", method: m, path };
}

/** The 404 body for a path nobody serves (fastify's shape, as before the collector left it). */
export function notFoundBody(method: string, path: string): string {
  return JSON.stringify({ error: "Not Found", message: `Route ${method}:${path} not found`, statusCode: 404 });
}
