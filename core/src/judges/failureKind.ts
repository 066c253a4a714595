/**
 * Judge failures grouped by cause (design §5, `judge_error`), read from the reason a judge gave:
 * the stream's stats count them per kind, so a failing judge is never silent.
 * - `timeout`: the judgment's time budget ran out (`RAGMETER_JUDGE_TIMEOUT_MS`) or a call timed out;
 * - `rate_limited`: HTTP 429 after the retries, or a Retry-After longer than the budget left;
 * - `server_error`: HTTP 5xx after the retries;
 * - `refused`: another HTTP 4xx (key, model name, request the endpoint does not take);
 * - `connection`: no HTTP answer (refused, reset, DNS);
 * - `truncated`: the reply hit its output bound; `bad_reply`: no valid reply after the parse attempts;
 * - `uncovered_claims`: the claims sent leave part of the answer out; `other`: anything else.
 */
const JUDGE_FAILURE_KINDS = ["timeout", "rate_limited", "server_error", "refused", "connection", "truncated", "bad_reply", "uncovered_claims", "other"] as const;

/** A kind of judge failure. */
export type JudgeFailureKind = (typeof JUDGE_FAILURE_KINDS)[number];

// A grounding reason over several calls starts with the claims it was about ("claims 9–16 of 20: ").
const PART = /^claims \d+–\d+ of \d+: /u;
// The transport's HTTP failure: "judge call failed: <the openai client's message>", which starts with the status when there was one.
const CALL_FAILED = /^judge call failed: (?:(\d{3})\b)?/u;

/** The kind of a `judge_error` reason (see {@link JUDGE_FAILURE_KINDS}). */
export function judgeFailureKind(reason: string): JudgeFailureKind {
  const r = reason.replace(PART, "");
  if (r.startsWith("timed out")) return "timeout";
  if (r.startsWith("paused by the endpoint")) return "rate_limited";
  const call = CALL_FAILED.exec(r);
  if (call) return callFailureKind(r, call[1]);
  if (r.startsWith("reply truncated at ")) return "truncated";
  if (r.startsWith("the claims do not cover the answer")) return "uncovered_claims";
  if (/\(after \d+ attempts\)$/u.test(r)) return "bad_reply";
  return "other";
}

/** The kind of a failed HTTP call: by its status, or by its message when no HTTP answer came. */
function callFailureKind(reason: string, status: string | undefined): JudgeFailureKind {
  if (status === undefined) return /timed out|timeout/iu.test(reason) ? "timeout" : "connection";
  const code = Number(status);
  if (code === 429) return "rate_limited";
  if (code === 408) return "timeout";
  return code >= 500 ? "server_error" : "refused";
}
