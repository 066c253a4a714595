// A collector process started by a benchmark (bench:collector, bench:peer, bench:soak): the
// environment that points it at a broker and a topic the benchmark made, and the wait for the
// "collector listening" line that carries its URL.

/**
 * The collector's environment for a benchmark: the given broker list and topic (made by the
 * benchmark, so never created by the collector), a free port on 127.0.0.1, info logs.
 * @param {{ brokers: string, topic: string }} o
 */
export function benchCollectorEnv({ brokers, topic }) {
  return {
    KAFKA_BROKERS: brokers,
    RAGMETER_TOPIC: topic,
    RAGMETER_KAFKA_CREATE_TOPICS: "false",
    RAGMETER_COLLECTOR_HOST: "127.0.0.1",
    RAGMETER_COLLECTOR_PORT: "0",
    RAGMETER_LOG_LEVEL: "info",
  };
}

/**
 * Resolves with the URL of the collector's (or a cluster primary's) "collector listening" line on
 * the child's stderr; rejects when the child exits first or, with `timeoutMs`, when the time is up
 * (the child is then killed). Its stderr keeps flowing afterwards.
 * @param {import("node:child_process").ChildProcess} child
 * @param {{ what?: string, timeoutMs?: number }} [o]
 * @returns {Promise<string>}
 */
export function untilListening(child, { what = "the collector", timeoutMs } = {}) {
  return new Promise((resolve, reject) => {
    let buf = "";
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            child.kill("SIGKILL");
            reject(new Error(`${what} did not listen within ${timeoutMs / 1000} s: ${buf.slice(-2000)}`));
          }, timeoutMs);
    const onData = (d) => {
      buf += d.toString();
      const line = buf.split("\n").find((l) => l.includes('"collector listening"') && !l.includes('"worker":'));
      const url = line === undefined ? undefined : JSON.parse(line).url;
      if (url) {
        clearTimeout(timer);
        child.stderr.off("data", onData);
        child.stderr.resume();
        resolve(url);
      }
    };
    child.stderr.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited with ${code}: ${buf.slice(-2000)}`));
    });
  });
}
