// `eval --target URL` against a service with its own request or reply shape: every question is a
// target_error, and the run's last line says `init` finds the body and mapping (found following the
// README as a new user: a service taking {"query"} refused all 14 questions with HTTP 422).
import { describe, expect, it } from "vitest";
import { plainTargetHint } from "../../scorer/src/cli/evalCommand.js";

const failed = (...reasons: string[]) => ({ failures: reasons.map((reason, i) => ({ golden_id: `g${i}`, status: "target_error", reason })) });
const url = "http://127.0.0.1:8000/query";
const hint = `hint: --target sends {"question": …} and reads {"answer", "contexts"}; for a service with another request or reply, \`npx ragmeter init --url ${url}\` finds its body and mapping and writes a --target-config`;

describe("plainTargetHint", () => {
  it("points to init when the service refused the request or answered in another shape", () => {
    expect(plainTargetHint(failed('HTTP 422: {"detail": [{"loc": ["body", "query"]}]}', "HTTP 400: bad request"), url)).toBe(hint);
    expect(plainTargetHint(failed('reply field "answer": Invalid input: expected string, received undefined'), url)).toBe(hint);
    expect(plainTargetHint(failed("reply is not JSON"), url)).toBe(hint);
  });

  it("says nothing when a failure is of another kind (the service down, a server error, a judge)", () => {
    expect(plainTargetHint(failed("HTTP 422: x", "request failed: connect ECONNREFUSED 127.0.0.1:8000"), url)).toBeNull();
    expect(plainTargetHint(failed("HTTP 500: Internal Server Error"), url)).toBeNull();
    expect(plainTargetHint({ failures: [{ golden_id: "g", status: "judge_error", reason: "HTTP 422: x" }] }, url)).toBeNull();
    expect(plainTargetHint({ failures: [] }, url)).toBeNull();
  });
});
