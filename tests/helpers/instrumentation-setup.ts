// Test helpers for the @ragmeter/instrumentation unit tests (not a test file itself).
import { context, type DiagLogger, DiagLogLevel, diag, propagation } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from "@opentelemetry/core";
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { vi } from "vitest";

/** A provider whose spans land in an in-memory exporter (SimpleSpanProcessor: tests only). */
export function memoryTracing() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter, provider, tracer: provider.getTracer("ragmeter-test") };
}

/**
 * Registers what an SDK would: an AsyncLocalStorage context manager and the W3C
 * propagators. Returns the function that undoes it.
 */
export function installContextAndPropagators(): () => void {
  const manager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(manager);
  propagation.setGlobalPropagator(new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }));
  return () => {
    propagation.disable();
    context.disable();
    manager.disable();
  };
}

/** Installs a spying diag logger; returns the spies and the undo function. */
export function spyDiag() {
  const logger = {
    error: vi.fn(),
    warn: vi.fn(),
    info: vi.fn(),
    debug: vi.fn(),
    verbose: vi.fn(),
  } satisfies DiagLogger;
  diag.setLogger(logger, { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true });
  return { logger, restore: () => diag.disable() };
}

/** The single span named `name` (fails loudly otherwise). */
export function spanNamed(spans: readonly ReadableSpan[], name: string): ReadableSpan {
  const found = spans.filter((s) => s.name === name);
  if (found.length !== 1) {
    throw new Error(`expected one span named ${name}, got ${found.length} among ${spans.map((s) => s.name).join(", ")}`);
  }
  return found[0] as ReadableSpan;
}

/** Sample retrieved chunks: the second has a document id distinct from its chunk id. */
export const ITEMS = [
  { id: "doc-7", text: "The refund window is 30 days.", score: 0.91 },
  { id: "doc-3#c2", document_id: "doc-3", text: "Refunds go to the original card.", score: 0.72 },
  { id: "doc-9#c0", document_id: "doc-9", text: "Gift cards are non-refundable.", score: 0.4 },
] as const;
