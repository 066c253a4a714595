/**
 * The judge budget of live traffic (design §5, `budget_exhausted`): LLM judge requests and tokens
 * per service in any 60 minutes (`RAGMETER_JUDGE_CALLS_PER_HOUR`, `RAGMETER_JUDGE_TOKENS_PER_HOUR`,
 * overridden per `service.name` by their `_BY_SERVICE` settings). A live trace is judged only while
 * what its service spent in the last hour plus what the traces being judged reserved is under its
 * caps. A trace admitted reserves its planned judge calls (one per judgment) and the service's mean
 * tokens per judged trace so far; once judged, the reservation gives way to what it spent (retries
 * and longer replies can take a service past a cap by that much). Each scorer counts its own spend
 * in memory and adds what the group spent ({@link JudgeBudget.setGroupSpend}: the other scorers' and
 * its own earlier processes' rows of `ingestion_stats`, read back from the store), so the cap holds
 * for the whole consumer group and across restarts, late by what the others spent and have not yet
 * written (design §5).
 */

/** Caps of one kind (calls or tokens) per hour: a default for every service and per-service overrides. */
export interface HourlyCap {
  /** Cap of a service without an override; null = no cap. */
  readonly perService: number | null;
  readonly byService?: Readonly<Record<string, number>>;
}

/** What one trace's judgments spent. */
export interface JudgeSpend {
  /** HTTP requests sent to the judge endpoint, retries included. */
  readonly calls: number;
  /** Prompt + completion tokens. */
  readonly tokens: number;
}

/** The settings each cap is read from (named in the reasons). */
const SETTING = { calls: "RAGMETER_JUDGE_CALLS_PER_HOUR", tokens: "RAGMETER_JUDGE_TOKENS_PER_HOUR" } as const;
type Kind = keyof typeof SETTING;

const MINUTE = 60_000;
const HOUR_MINUTES = 60;

/** A service's spend per minute of the last hour. */
type Minutes = Map<number, { calls: number; tokens: number }>;

/** What a scorer spent on one service in one minute, as read from the group's `ingestion_stats` rows. */
export interface MinuteSpend extends JudgeSpend {
  readonly service: string;
  /** The minute's start, Unix seconds. */
  readonly minute: number;
}

/** Called with what each judged live trace spent (the scorer's `ingestion_stats` rows record it). */
export type SpendObserver = (service: string, spend: JudgeSpend, now: number) => void;

/** Calls and tokens of `minutes` from minute `from` on; minutes before it are dropped from the map. */
function sumFrom(minutes: Minutes | undefined, from: number): JudgeSpend {
  let calls = 0;
  let tokens = 0;
  for (const [m, s] of minutes ?? []) {
    if (m < from) minutes?.delete(m);
    else {
      calls += s.calls;
      tokens += s.tokens;
    }
  }
  return { calls, tokens };
}

/** What an admitted trace holds of its service's budget until it is judged ({@link JudgeBudget.settle}). */
export interface Reservation {
  readonly service: string;
  readonly calls: number;
  readonly tokens: number;
}

/** The answer of {@link JudgeBudget.admit}. */
export type Admission = { readonly ok: true; readonly reservation: Reservation } | { readonly ok: false; readonly reason: string };

/** Per-service judge budget over a sliding hour (one per scorer process; no module state). */
export class JudgeBudget {
  readonly #caps: Readonly<Record<Kind, HourlyCap>>;
  readonly #spent = new Map<string, Minutes>();
  // What the rest of the group spent, per service and minute (the last read of the store).
  #group = new Map<string, Minutes>();
  #observer: SpendObserver | null = null;
  readonly #reserved = new Map<string, { calls: number; tokens: number }>();
  // Per service: judged traces and their tokens since start (the token estimate of a reservation).
  readonly #judged = new Map<string, { traces: number; tokens: number }>();

  constructor(caps: { readonly calls: HourlyCap; readonly tokens: HourlyCap }) {
    this.#caps = caps;
  }

  /** Whether any cap is set (no cap: nothing is counted). */
  get capped(): boolean {
    const any = (c: HourlyCap) => c.perService !== null || Object.keys(c.byService ?? {}).length > 0;
    return any(this.#caps.calls) || any(this.#caps.tokens);
  }

  #cap(kind: Kind, service: string): { limit: number; setting: string } | null {
    const c = this.#caps[kind];
    if (c.byService !== undefined && Object.hasOwn(c.byService, service)) return { limit: c.byService[service] as number, setting: `${SETTING[kind]}_BY_SERVICE` };
    return c.perService === null ? null : { limit: c.perService, setting: SETTING[kind] };
  }

  /** What `service` spent in the 60 minutes up to `now` (the minute of `now` included): this process's spend and the group's. */
  spentInHour(service: string, now: number): JudgeSpend {
    const own = this.#ownInHour(service, now);
    const group = this.groupInHour(service, now);
    return { calls: own.calls + group.calls, tokens: own.tokens + group.tokens };
  }

  /** What this process spent on `service` in the 60 minutes up to `now`. */
  #ownInHour(service: string, now: number): JudgeSpend {
    return sumFrom(this.#spent.get(service), Math.floor(now / MINUTE) - HOUR_MINUTES + 1);
  }

  /** What the rest of the group (other scorers, this scorer's earlier processes) spent on `service` in the 60 minutes up to `now`, as last read. */
  groupInHour(service: string, now: number): JudgeSpend {
    return sumFrom(this.#group.get(service), Math.floor(now / MINUTE) - HOUR_MINUTES + 1);
  }

  /**
   * Replaces what the rest of the group spent (every minute and service read from the store, the
   * rows of this process left out: its own spend is counted in memory).
   */
  setGroupSpend(rows: readonly MinuteSpend[]): void {
    const group = new Map<string, Minutes>();
    for (const r of rows) {
      if (r.calls === 0 && r.tokens === 0) continue;
      let minutes = group.get(r.service);
      if (minutes === undefined) {
        minutes = new Map();
        group.set(r.service, minutes);
      }
      const m = Math.floor(r.minute / 60);
      const cur = minutes.get(m) ?? { calls: 0, tokens: 0 };
      minutes.set(m, { calls: cur.calls + r.calls, tokens: cur.tokens + r.tokens });
    }
    this.#group = group;
  }

  /** Sets the one observer of what judged live traces spend (with or without a cap). */
  observe(observer: SpendObserver): void {
    this.#observer = observer;
  }

  /** What the traces of `service` being judged reserved. */
  reserved(service: string): JudgeSpend {
    return this.#reserved.get(service) ?? { calls: 0, tokens: 0 };
  }

  /**
   * Admits a trace of `service` whose judges would make `plannedCalls` calls at `now`, reserving
   * them (and the service's mean tokens per judged trace); or the reason of its `budget_exhausted`
   * metrics, naming the cap, what was spent and the setting.
   */
  admit(service: string, now: number, plannedCalls: number): Admission {
    if (!this.capped) return { ok: true, reservation: { service, calls: 0, tokens: 0 } };
    const spent = this.spentInHour(service, now);
    const held = this.reserved(service);
    for (const kind of ["calls", "tokens"] as const) {
      const cap = this.#cap(kind, service);
      if (cap !== null && spent[kind] + held[kind] >= cap.limit) return { ok: false, reason: this.#refusal(kind, cap, service, now, spent[kind], held[kind]) };
    }
    const j = this.#judged.get(service);
    const reservation = { service, calls: plannedCalls, tokens: j === undefined || j.traces === 0 ? 0 : Math.ceil(j.tokens / j.traces) };
    this.#reserved.set(service, { calls: held.calls + reservation.calls, tokens: held.tokens + reservation.tokens });
    return { ok: true, reservation };
  }

  /** The reason of a `budget_exhausted`: the cap, what was spent (by the rest of the group among it) and reserved, the setting. */
  #refusal(kind: Kind, cap: { limit: number; setting: string }, service: string, now: number, spent: number, held: number): string {
    const who = service === "" ? "traces without a service.name" : `service "${service}"`;
    const group = this.groupInHour(service, now)[kind];
    const others = group > 0 ? `, ${group} of them by other scorers of the group or before a restart` : "";
    const pending = held > 0 ? `, ${held} more reserved by traces being judged` : "";
    return `judge budget of ${cap.limit} ${kind} per hour used by ${who} (${spent} in the last 60 minutes${others}${pending}; ${cap.setting})`;
  }

  /** Releases a reservation and adds what its trace spent at `now` (nothing: the trace was not judged). */
  settle(r: Reservation, s: JudgeSpend, now: number): void {
    if (s.calls > 0 || s.tokens > 0) this.#observer?.(r.service, s, now);
    if (!this.capped) return;
    const held = this.reserved(r.service);
    this.#reserved.set(r.service, { calls: Math.max(0, held.calls - r.calls), tokens: Math.max(0, held.tokens - r.tokens) });
    if (s.calls > 0 || s.tokens > 0) {
      const j = this.#judged.get(r.service) ?? { traces: 0, tokens: 0 };
      this.#judged.set(r.service, { traces: j.traces + 1, tokens: j.tokens + s.tokens });
    }
    this.#add(r.service, s, now);
  }

  /** Adds what a trace of `service` spent at `now` to this process's spend. */
  #add(service: string, s: JudgeSpend, now: number): void {
    if (s.calls === 0 && s.tokens === 0) return;
    let minutes = this.#spent.get(service);
    if (minutes === undefined) {
      minutes = new Map();
      this.#spent.set(service, minutes);
    }
    const m = Math.floor(now / MINUTE);
    const cur = minutes.get(m) ?? { calls: 0, tokens: 0 };
    minutes.set(m, { calls: cur.calls + s.calls, tokens: cur.tokens + s.tokens });
  }
}
