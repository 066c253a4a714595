// The evaluation export with its endpoint down: the real OTel logs SDK and OTLP/HTTP exporter against
// a port where nothing listens (9, discard). Each batch's export retries for up to the timeout; a
// command's shutdown must not wait one timeout per batch.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import type { Evaluation } from "../../core/src/domain/evaluation.js";
import { startEvaluationExport } from "../../stream/src/evaluationExport.js";

const event = (i: number): Evaluation => ({
  trace_id: i.toString(16).padStart(32, "0"),
  span_id: "00000000000000a1",
  attributes: { "gen_ai.evaluation.name": "recall@1", "gen_ai.evaluation.score.value": 1 },
  error: false,
});

describe("evaluation export, endpoint down", () => {
  it("drops the batches that follow a failed one at once: one batch reaches the endpoint, not one per batch", async () => {
    const timeoutMs = 1000;
    // an endpoint that takes the request and never answers: each export attempt is counted, none succeeds
    let requests = 0;
    const hang = createServer((req) => {
      requests++;
      req.resume();
    });
    await new Promise<void>((r) => hang.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(hang.address() as AddressInfo).port}/v1/logs`;
    const warnings: string[] = [];
    try {
      const exp = startEvaluationExport({ url, headers: {}, timeoutMs }, "ragmeter-eval", (m) => warnings.push(m));
      // 8,192 events = 16 batches of 512
      exp.emit(Array.from({ length: 8192 }, (_, i) => event(i + 1)));
      const stats = await exp.shutdown();
      expect(stats).toEqual({ emitted: 8192, exported: 0, failed: 8192 });
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/^evaluation export to http:\/\/127\.0\.0\.1:\d+\/v1\/logs failed \(.+\); its events are dropped, the scores are stored$/u);
      // the first batch is tried (the SDK may retry it within its timeout); the other 15 are dropped
      // without a request, where each would otherwise hang for a whole timeout
      expect(requests).toBeGreaterThanOrEqual(1);
      expect(requests).toBeLessThan(16);
    } finally {
      hang.closeAllConnections();
      await new Promise<void>((r) => hang.close(() => r()));
    }
  });
  it("tries the endpoint again once the window after a failure has passed", async () => {
    const timeoutMs = 800;
    // a free port, closed again: nothing listens there until the receiver starts below
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const warnings: string[] = [];
    const exp = startEvaluationExport({ url: `http://127.0.0.1:${port}/v1/logs`, headers: {}, timeoutMs }, "ragmeter-scorer", (m) => warnings.push(m));
    exp.emit(Array.from({ length: 10 }, (_, i) => event(i + 1)));
    for (let waited = 0; warnings.length === 0 && waited < 10_000; waited += 50) await sleep(50);
    expect(warnings).toHaveLength(1);
    let received = 0;
    const receiver = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        received++;
        res.writeHead(200, { "content-type": "application/x-protobuf" }).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(port, "127.0.0.1", r));
    try {
      await sleep(timeoutMs + 200);
      exp.emit(Array.from({ length: 10 }, (_, i) => event(i + 100)));
      expect(await exp.shutdown()).toEqual({ emitted: 20, exported: 10, failed: 10 });
      expect(received).toBe(1);
    } finally {
      await new Promise<void>((r) => receiver.close(() => r()));
    }
  });
});
