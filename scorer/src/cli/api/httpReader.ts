import type { RunRecord } from "@ragmeter/store/runs";
import type { Comparison } from "../../runs/compare.js";
import type { LiveSummary } from "../../runs/live.js";
import type { ReportData } from "../../runs/reportData.js";
import { ReadApiError } from "./errors.js";
import type { Reader, RunQuestions } from "./reader.js";

/** The error of a request that got no answer, naming why (refused, a certificate not trusted: what to set). */
function unreachable(baseUrl: string, err: unknown): ReadApiError {
  // fetch's own message is "fetch failed": the reason (refused, a certificate not trusted) is its cause
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  const why = cause?.code ?? cause?.message ?? (err as Error).message;
  const hint = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY/u.test(why) ? " (its TLS certificate is not trusted here: NODE_EXTRA_CA_CERTS=<the CA's PEM file>)" : "";
  return new ReadApiError(`the store's owner API at ${baseUrl} is unreachable: ${why}${hint}`, null);
}

/**
 * A reader that asks the read API of the process owning the embedded store (`serve`, `scorer`),
 * with the collector's bearer token when one is set. Responses are the API's own JSON (same types).
 */
export function httpReader(baseUrl: string, token: string | undefined): Reader {
  const get = async <T>(route: string, params: Record<string, string | number | undefined> = {}, allow404 = false): Promise<T | null> => {
    const url = new URL(route, baseUrl);
    for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, String(v));
    let res: Response;
    try {
      res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    } catch (err) {
      throw unreachable(baseUrl, err);
    }
    if (allow404 && res.status === 404) return null;
    if (!res.ok) {
      const body = (await res.json().catch(() => ({}))) as { error?: string };
      throw new ReadApiError(`${url.pathname} on the store's owner API (${baseUrl}) answered ${res.status}: ${body.error ?? res.statusText}`, res.status);
    }
    return (await res.json()) as T;
  };
  const must = <T>(x: T | null): T => x as T;
  return {
    location: `${baseUrl} (read API of the store's owner)`,
    runs: async () => must(await get<RunRecord[]>("/api/runs")),
    run: (id) => get<RunRecord>(`/api/runs/${encodeURIComponent(id)}`, {}, true),
    questions: (id) => get<RunQuestions>(`/api/runs/${encodeURIComponent(id)}/questions`, {}, true),
    compare: (a, b, o) => get<Comparison>("/api/compare", { a, b, seed: o.seed, resamples: o.resamples }, true),
    live: async (q) => must(await get<LiveSummary>("/api/live", { window_ms: q.windowMs, service: q.service, pipeline_version: q.pipelineVersion })),
    report: async (o) => must(await get<ReportData>("/api/report", { golden_set: o.goldenSet })),
  };
}
