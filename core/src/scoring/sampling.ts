import { createHash } from "node:crypto";

/**
 * Which live traces an LLM judge sees (design §5, `not_sampled`): a share per service
 * (`RAGMETER_LIVE_SAMPLE_RATE`, overridden per `service.name` by `RAGMETER_LIVE_SAMPLE_RATE_BY_SERVICE`),
 * decided by a hash of the trace id alone, so every replica, restart and re-scoring of a trace
 * decides the same, and a trace judged at one rate is judged at every higher rate.
 */
export interface JudgeSampling {
  /** Share of a service's live traces judged, 0–1, when the service has no override. */
  readonly rate: number;
  /** Per-service shares, by `service.name`. */
  readonly byService?: Readonly<Record<string, number>>;
}

/** The share of `service`'s live traces that is judged. */
function sampleRateOf(s: JudgeSampling, service: string): number {
  return s.byService !== undefined && Object.hasOwn(s.byService, service) ? (s.byService[service] as number) : s.rate;
}

/**
 * The trace id's place in [0, 1): the first 4 bytes of the SHA-256 of its lower-case hex, big-endian,
 * over 2³². A hash rather than the id's own bits: ids that are not random (a clock in the high bits,
 * a counter in the low ones) still spread evenly.
 */
export function traceFraction(traceId: string): number {
  return createHash("sha256").update(traceId.toLowerCase()).digest().readUInt32BE(0) / 0x1_0000_0000;
}

/** Whether a live trace of `service` is judged: its {@link traceFraction} is below the service's rate. */
export function sampledIn(s: JudgeSampling, traceId: string, service: string): boolean {
  const rate = sampleRateOf(s, service);
  if (rate >= 1) return true;
  if (rate <= 0) return false;
  return traceFraction(traceId) < rate;
}

/** The reason of a `not_sampled` metric, naming the rate and the setting it came from. */
export function notSampledReason(s: JudgeSampling, service: string): string {
  const own = s.byService !== undefined && Object.hasOwn(s.byService, service);
  const rate = sampleRateOf(s, service);
  return own
    ? `live trace outside the judge sampling rate ${rate} of service "${service}" (RAGMETER_LIVE_SAMPLE_RATE_BY_SERVICE)`
    : `live trace outside the judge sampling rate ${rate} (RAGMETER_LIVE_SAMPLE_RATE)`;
}
