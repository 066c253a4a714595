// The HTTP client of the LLM judge: undici's fetch through an agent of its own whose header and body
// timeouts are the judgment's time budget (issue 40). Node's global fetch gives up after 300 s without
// response headers (undici's default headersTimeout), and llama.cpp sends them only when generation
// ends: a judge call of more than 300 s failed whatever RAGMETER_JUDGE_TIMEOUT_MS said.
import { Agent, fetch as undiciFetch } from "undici";

/** The timeouts of the judge's agent, ms: both are the judgment's time budget (`RAGMETER_JUDGE_TIMEOUT_MS`). */
export function judgeAgentTimeouts(budgetMs: number): { headersTimeout: number; bodyTimeout: number } {
  return { headersTimeout: budgetMs, bodyTimeout: budgetMs };
}

/** A fetch for the `openai` client whose only time bounds are the budget (the caller's abort signal and the agent's timeouts). */
export function judgeFetch(budgetMs: number): typeof fetch {
  const agent = new Agent(judgeAgentTimeouts(budgetMs));
  return ((url: Parameters<typeof fetch>[0], init?: RequestInit) =>
    undiciFetch(url as Parameters<typeof undiciFetch>[0], { ...(init as Parameters<typeof undiciFetch>[1]), dispatcher: agent })) as unknown as typeof fetch;
}
