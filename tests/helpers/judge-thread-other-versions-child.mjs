// A judge thread built from other rules: it says prompt versions the calling thread's judge does not have.
import { parentPort } from "node:worker_threads";

parentPort?.postMessage({ type: "ready", promptVersion: { grounding: "000000000000" } });
parentPort?.on("message", () => {});
