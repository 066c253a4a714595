// What the service scripts (kafka, otelcol, local-model) share: process and port probes, and the
// entry-point wrapper that turns a script's main() into an exit code.
import { createConnection } from "node:net";
import { pathToFileURL } from "node:url";

/** True when a process with this pid exists (EPERM: it exists but is not ours). */
export function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === "EPERM";
  }
}

/** True when something accepts a TCP connection on 127.0.0.1:port within timeoutMs. */
export function portOpen(port, timeoutMs = 1000) {
  return new Promise((resolve) => {
    const s = createConnection({ host: "127.0.0.1", port });
    const t = setTimeout(() => {
      s.destroy();
      resolve(false);
    }, timeoutMs);
    s.once("connect", () => {
      clearTimeout(t);
      s.end();
      resolve(true);
    });
    s.once("error", () => {
      clearTimeout(t);
      resolve(false);
    });
  });
}

/**
 * Runs `main(argv)` when `moduleUrl` is the script node was started with; its result is the exit
 * code. An error of `KnownError` prints its message after `[tag]`, any other its stack; both exit 2.
 */
export function runIfMain(moduleUrl, main, tag, KnownError) {
  if (moduleUrl !== pathToFileURL(process.argv[1] ?? "").href) return;
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err) => {
      process.stderr.write(`[${tag}] ${err instanceof KnownError ? err.message : err.stack}\n`);
      process.exitCode = 2;
    },
  );
}
