import { describe, expect, it } from "vitest";
import { ConfigError } from "../../core/src/domain/errors.js";
import { uniqueSubstring } from "../../scorer/src/runs/pin.js";
import { expandEnv, fillPlaceholders, loadTargetConfig } from "../../scorer/src/runs/targetConfig.js";

const vars = { question: "a b?", k: 10, golden_id: "g 1", run_id: "r-1" };

describe("target config placeholders", () => {
  it("a string that is a placeholder alone becomes the value (k a number); inside a string its text", () => {
    expect(fillPlaceholders({ top_k: "{{k}}", q: "{{ question }}", note: "k={{k}} id={{golden_id}}", n: 3, list: ["{{run_id}}"] }, vars)).toEqual({
      top_k: 10,
      q: "a b?",
      note: "k=10 id=g 1",
      n: 3,
      list: ["r-1"],
    });
  });
  it("URL-encodes values inside a URL", () => {
    expect(fillPlaceholders("http://h/s?q={{question}}&g={{golden_id}}", vars, encodeURIComponent)).toBe("http://h/s?q=a%20b%3F&g=g%201");
  });
  it("unknown placeholders are left as written", () => {
    expect(fillPlaceholders("{{answer}}", vars)).toBe("{{answer}}");
  });
});

describe("${VAR} from the environment", () => {
  it("expands every string", () => {
    expect(expandEnv({ h: { authorization: "Bearer ${TOKEN}" }, u: "${HOST}:${PORT}" }, { TOKEN: "t", HOST: "h", PORT: "1" }, "f")).toEqual({
      h: { authorization: "Bearer t" },
      u: "h:1",
    });
  });
  it("a missing variable is a ConfigError naming it", () => {
    expect(() => expandEnv({ a: "${NOPE}" }, {}, "--target-config x.yaml")).toThrow(
      new ConfigError("--target-config x.yaml: environment variable NOPE is not set (used as ${NOPE})"),
    );
  });
});

describe("uniqueSubstring", () => {
  it("the first sentence of three words or more that occurs once in the chunk", () => {
    // "Yes." is too short; "Run it now." occurs twice; the third sentence is unique
    expect(uniqueSubstring("Yes. Run it now. Then   check the log. Run it now.")).toBe("Then check the log.");
  });
  it("the whole text when no sentence is unique", () => {
    expect(uniqueSubstring("Run it now. Run it now.")).toBe("Run it now. Run it now.");
  });
  it("near an answer: the unique sentence sharing the most words with it, the first of a tie", () => {
    // init's starter item from a new user's service: the first sentence does not hold the answer
    const chunk = 'Open the sign-in page and choose "Forgot password". We email a reset link that stays valid for 45 minutes.';
    // words shared with the answer: none in the first sentence, all 11 in the second
    expect(uniqueSubstring(chunk, "We email a reset link that stays valid for 45 minutes.")).toBe("We email a reset link that stays valid for 45 minutes.");
    expect(uniqueSubstring(chunk)).toBe('Open the sign-in page and choose "Forgot password".');
    // "the page" is shared by both sentences (2 words each): the first wins
    expect(uniqueSubstring("Open the page now. Close the page later.", "the page")).toBe("Open the page now.");
    // "Run it now." shares both words but occurs twice, "Yes." is too short: the one unique sentence, sharing none
    expect(uniqueSubstring("Yes. Run it now. Then check the log. Run it now.", "run it")).toBe("Then check the log.");
  });
});

describe("target config validation", () => {
  it("a missing field is named and reads required; a wrong type keeps zod's message", async () => {
    const { mkdtempSync, writeFileSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const path = await import("node:path");
    const dir = mkdtempSync(path.join(tmpdir(), "ragmeter-target-config-"));
    const missing = path.join(dir, "missing.json");
    writeFileSync(missing, JSON.stringify({ response: { answer: "$.response", contexts: "$.sources[*]" } }));
    await expect(loadTargetConfig(missing, {})).rejects.toThrow(`--target-config ${missing}: field "url": required`);
    const wrong = path.join(dir, "wrong.json");
    writeFileSync(wrong, JSON.stringify({ url: 7, response: { answer: "$.response", contexts: "$.sources[*]" } }));
    await expect(loadTargetConfig(wrong, {})).rejects.toThrow(/field "url": .*expected string, received number/u);
  });
});
