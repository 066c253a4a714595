import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { claimSpan, claimTextSql } from "../../core/src/domain/claimSpans.js";
import { CLAIM_TEXT } from "../../dashboards/src/sql.js";

const ANSWER = "Refunds take 30 days. Возврат — 30 дней. 退款需要三十天。 Keep the receipt 🧾 safe.";
const bytes = (s: string): Buffer => Buffer.from(s, "utf8");

describe("claims stored as slices of their answer (design §6, migration 16)", () => {
  it("a slice of the answer: its UTF-8 byte offset and length, no text, the answer's digest", () => {
    for (const claim of ["Refunds take 30 days.", "Возврат — 30 дней.", "退款需要三十天。", "Keep the receipt 🧾 safe."]) {
      const s = claimSpan(claim, ANSWER);
      expect(s.claim).toBe("");
      expect(
        bytes(ANSWER)
          .subarray(s.claim_start, s.claim_start + s.claim_length)
          .toString("utf8"),
      ).toBe(claim);
      // The first four bytes of the answer's MD5, little-endian: ClickHouse's reinterpretAsUInt32(MD5(answer)).
      expect(s.answer_digest).toBe(createHash("md5").update(ANSWER, "utf8").digest().readUInt32LE(0));
    }
  });

  it("any other claim keeps its text: not in the answer, blank, or no answer known", () => {
    const kept = { claim_start: 0, claim_length: 0, answer_digest: 0 };
    expect(claimSpan("Refunds take thirty days.", ANSWER)).toEqual({ claim: "Refunds take thirty days.", ...kept });
    expect(claimSpan("", ANSWER)).toEqual({ claim: "", ...kept });
    expect(claimSpan("Refunds take 30 days.", null)).toEqual({ claim: "Refunds take 30 days.", ...kept });
    // A lone surrogate (an answer cut inside an emoji) in the answer or the claim: the text is kept.
    const cut = `${ANSWER} \ud83e`;
    expect(claimSpan("Refunds take 30 days.", cut)).toEqual({ claim: "Refunds take 30 days.", ...kept });
    expect(claimSpan("\udfe7 safe.", ANSWER.replace("🧾", "x\udfe7"))).toEqual({ claim: "\udfe7 safe.", ...kept });
  });

  it("the dashboards read a claim's text with the store's SQL", () => {
    expect(CLAIM_TEXT).toBe(claimTextSql("c", "i.answer"));
  });
});
