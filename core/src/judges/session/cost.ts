import { z } from "zod";

/**
 * The price table of `RAGMETER_PRICES`: a JSON file mapping a judge model name to its USD prices per
 * million tokens, e.g. `{"gpt-4.1-mini": {"input_per_1m": 0.40, "output_per_1m": 1.60}}`.
 */
export const priceTableSchema = z.record(z.string().min(1), z.object({ input_per_1m: z.number().nonnegative(), output_per_1m: z.number().nonnegative() }).strict());

/** USD per million input and output tokens. */
export type Price = { readonly input_per_1m: number; readonly output_per_1m: number };
/** model → price. */
export type PriceTable = Readonly<Record<string, Price>>;

/** The price of `model`, or null when the table is absent or does not list it. */
export function priceOf(prices: PriceTable | null | undefined, model: string): Price | null {
  if (!prices || !Object.hasOwn(prices, model)) return null;
  return prices[model] ?? null;
}

/** Cost in USD of `inputTokens` and `outputTokens` at `price`. */
export function costUsd(price: Price, inputTokens: number, outputTokens: number): number {
  return (inputTokens * price.input_per_1m + outputTokens * price.output_per_1m) / 1_000_000;
}
