// A judge thread that never answers: its calls are still pending when the judge is closed.
import { parentPort } from "node:worker_threads";

parentPort?.on("message", () => {});
