import cliProgress from "cli-progress";

/** A progress reporter for long runs: a bar on a terminal, nothing otherwise. */
export interface Progress {
  update(done: number, total: number): void;
  stop(): void;
}

/** Updates the ETA is estimated over (cli-progress's moving window; its default of 10 makes it jump). */
const ETA_WINDOW = 200;

/** A cli-progress bar on stderr when `interactive`, else a no-op. */
export function createProgress(interactive: boolean, label: string): Progress {
  if (!interactive) return { update() {}, stop() {} };
  const bar = new cliProgress.SingleBar(
    { format: `${label} [{bar}] {value}/{total} questions · {eta_formatted} left`, stream: process.stderr, clearOnComplete: true, hideCursor: true, etaBuffer: ETA_WINDOW },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(done, total) {
      if (!started) {
        bar.start(total, 0);
        started = true;
      }
      bar.update(done);
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
