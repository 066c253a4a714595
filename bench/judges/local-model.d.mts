// Types of bench/judges/local-model.mjs for TypeScript callers (the integration test).
export declare const GROUNDING_TOLERANCE: number;
export interface BenchCase {
  id: string;
  language: string;
  category: string;
  question: string;
  answer: string;
  chunks: { id: string; text: string }[];
  claims: { text: string; label: string }[];
  expected_grounding: number | null;
  expected_grounding_status: "ok" | "no_claims";
  relevance: { min: number; max: number };
}
export interface JudgedStatus {
  status: string;
  value: number | null;
  reason: string | null;
  calls: number;
  input_tokens: number;
  output_tokens: number;
  latency_ms: number;
}
export interface BenchRow {
  id: string;
  language: string;
  category: string;
  crash: string | null;
  grounding?: JudgedStatus & { claims: string[] };
  relevance?: JudgedStatus;
}
export interface BenchSummary {
  cases: number;
  crashes: number;
  grounding_agreement: number | null;
  relevance_agreement: number | null;
  claim_verdict_agreement: number | null;
  statuses: Record<string, number>;
  [k: string]: unknown;
}
export declare function loadCases(file?: string): BenchCase[];
export declare function pickCases(cases: BenchCase[], n: number): BenchCase[];
export declare function judgeCases(
  cases: BenchCase[],
  options: { baseURL: string; model: string; timeoutMs?: number; maxOutputTokens?: number; contextTokens?: number; log?: (m: string) => void },
): Promise<{ rows: BenchRow[]; summary: BenchSummary }>;
export declare function summarize(rows: BenchRow[]): BenchSummary;
export declare function printSummary(s: BenchSummary, print?: (line: string) => void): void;
