import { createLlmJudge, type LlmJudgeOptions } from "../../core/src/judges/llm/llmJudge.js";
import type { Judge } from "../../core/src/judges/types.js";
import { startFakeOpenAI } from "./openaiServer.js";

/**
 * The LLM judge (real `openai` client over HTTP) against a scripted OpenAI-compatible server; the
 * server's close is pushed on `closers` (the test file's afterEach runs them). `options` are the
 * judge's (`model`, `maxRetries`, …) beside `baseURL`, `apiKey` "test" and a 5 s timeout.
 */
export async function fakeJudge(
  script: Parameters<typeof startFakeOpenAI>[0],
  closers: (() => Promise<void>)[],
  options: Partial<LlmJudgeOptions> & Pick<LlmJudgeOptions, "model">,
): Promise<{ server: Awaited<ReturnType<typeof startFakeOpenAI>>; judge: Judge }> {
  const server = await startFakeOpenAI(script);
  closers.push(server.close);
  return { server, judge: createLlmJudge({ baseURL: server.baseURL, apiKey: "test", timeoutMs: 5_000, ...options }) };
}
