/** Warnings about Kafka failures, one per cause while it lasts. */
import type { PinoLogger } from "@ragmeter/runtime";
import type { SinkState } from "./state.js";

/** How long the same cause stays silent after its warning. */
const WARNING_REPEAT_MS = 60_000;

/**
 * The cause of a failure: its explanation without the client's trailing detail in brackets (which
 * names the failed operation), so refused credentials warn once, not at every back-off.
 */
export function causeOf(line: string): string {
  return line.replace(/ \[.*\]$/su, "");
}

/** Records `err` as the last cause and logs `msg` unless the same cause was logged within a minute; returns the explanation. */
export function createWarner(state: SinkState, logger: PinoLogger, explain: (err: unknown) => string): (err: unknown, msg: string) => string {
  return (err, msg) => {
    const line = explain(err);
    state.lastCause = line;
    const cause = causeOf(line);
    if (cause !== state.lastWarning.cause || Date.now() - state.lastWarning.at > WARNING_REPEAT_MS) {
      state.lastWarning = { cause, at: Date.now() };
      logger.warn({ error: line }, msg);
    }
    return line;
  };
}
