// The one RAG request every convention driver records (tests/integration/conventions.integration.test.ts
// asserts these values, written out literally there).
export const QUESTION = "How many days do customers have to ask for a refund?";
/** Model asked for; the local server answers as `${MODEL}-2024-07-18` (the response model). */
export const MODEL = "gpt-4o-mini";
/** Twelve chunks, so that index 10 and 11 come after 9; chunk ids differ from document ids. */
export const DOCS = Array.from({ length: 12 }, (_, i) => ({
  id: `chunk-${i}`,
  document_id: `doc-${String.fromCharCode(97 + i)}`,
  text: `Passage ${i}: refunds are accepted within ${i + 20} days of purchase.`,
  score: Number((0.99 - i * 0.05).toFixed(2)),
}));
export const SYSTEM = "Answer from the context only.";
export const contextOf = (docs) => docs.map((d) => `[${d.id}] ${d.text}`).join("\n");

/** OTLP/HTTP base URL of the receiver (POST {url}/v1/traces, {url}/v1/logs). */
export function otlpUrl() {
  const url = process.env.RAGMETER_TEST_OTLP_URL;
  if (!url) throw new Error("RAGMETER_TEST_OTLP_URL is not set");
  return url.replace(/\/$/, "");
}
/** Base URL of the OpenAI-compatible server (ends with /v1). */
export function openaiUrl() {
  const url = process.env.OPENAI_BASE_URL;
  if (!url) throw new Error("OPENAI_BASE_URL is not set");
  return url;
}
