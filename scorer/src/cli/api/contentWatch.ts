import type { Logger } from "@ragmeter/runtime";
import { CAPTURE_CONTENT_ENV } from "../../runs/live.js";
import type { Reader } from "./reader.js";

/** How often `serve` and `scorer` look at the last hour's live traffic for missing content, ms. */
const CONTENT_WATCH_INTERVAL_MS = 5000;

/**
 * Logs the content-missing warning of `ragmeter live` (naming OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT)
 * in the progress log when most of the last hour's live traces are `content_missing`: once when it
 * starts to hold, again when the services it names change, and "live traces carry content again" when it stops.
 * @returns stop() (clears the timer)
 */
export function watchContentCapture(reader: Reader, log: Logger, intervalMs = CONTENT_WATCH_INTERVAL_MS): { check(): Promise<void>; stop(): void } {
  let last: string | null = null;
  let busy = false;
  const check = async (): Promise<void> => {
    if (busy) return;
    busy = true;
    try {
      const s = await reader.live({ windowMs: 3_600_000 });
      const w = s.warnings[0] ?? null;
      // Keyed without the counts ("N of M …"): a new line when the services named change, not on every trace.
      const key = w === null ? null : w.replace(/^\d+ of \d+ /u, "");
      if (w !== null && key !== last) log.warn(w, { variable: CAPTURE_CONTENT_ENV, traces: s.traces_seen, content_missing: s.content_missing });
      else if (w === null && last !== null) log.info("live traces carry content again", { traces: s.traces_seen, content_missing: s.content_missing });
      last = key;
    } catch (err) {
      log.debug("content watch skipped", { error: (err as Error).message });
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void check(), intervalMs);
  timer.unref();
  return { check, stop: () => clearInterval(timer) };
}
