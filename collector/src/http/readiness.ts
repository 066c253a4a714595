/** GET /readyz: the answer from the sink's readiness, 503 while closing. */
import type { RecordSink } from "../kafka-sink.js";

/** Status and JSON body of /readyz. */
export async function readinessAnswer(closing: boolean, sink: RecordSink): Promise<{ status: number; body: Record<string, string> }> {
  if (closing) return { status: 503, body: { status: "closing" } };
  if (sink.readiness) {
    const r = await sink.readiness();
    if (r.ready) return { status: 200, body: { status: "ready" } };
    return { status: 503, body: r.reason === "topic missing" ? { status: r.reason, topic: r.topic } : { status: r.reason } };
  }
  const ok = await sink.ready();
  return { status: ok ? 200 : 503, body: { status: ok ? "ready" : "kafka unreachable" } };
}
