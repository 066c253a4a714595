// The bundled sample RAG target (examples/sample-rag) for the eval benchmarks: start its server as a
// child process, and build golden files of any size from its golden set.
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

/** Starts `examples/sample-rag/dist/serve.js` on a free port; resolves with its /ask URL and a stop(). */
export async function startSampleTarget() {
  const child = spawn(process.execPath, [path.join(root, "examples/sample-rag/dist/serve.js")], {
    env: { ...process.env, PORT: "0", OTEL_TRACES_EXPORTER: "none" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise((resolve, reject) => {
    child.stdout.on("data", (d) => {
      const m = /at (http:\/\/\S+\/ask)/u.exec(d.toString());
      if (m) resolve(m[1]);
    });
    child.on("exit", (c) => reject(new Error(`sample serve exited with ${c}`)));
  });
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("exit", resolve);
      child.kill("SIGTERM");
    });
  return { url, stop };
}

/** The sample golden set (examples/sample-rag/golden.jsonl), parsed. */
export const sampleGolden = readFileSync(path.join(root, "examples/sample-rag/golden.jsonl"), "utf8")
  .split("\n")
  .filter((l) => l.trim() !== "")
  .map((l) => JSON.parse(l));

/** Writes n items to `file`: the sample golden set cycled, each copy with its own id (`<id>-<copy>`). */
export function writeGoldenFile(file, n) {
  const lines = [];
  for (let i = 0; i < n; i++) {
    const it = sampleGolden[i % sampleGolden.length];
    lines.push(JSON.stringify({ ...it, id: `${it.id}-${Math.floor(i / sampleGolden.length)}` }));
  }
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

/** The `ragmeter eval` arguments the eval benchmarks share: `golden` against `url`, pipeline version `bench`. */
export function benchEvalArgs(golden, url, concurrency, home) {
  return ["eval", "--golden", golden, "--target", url, "--pipeline-version", "bench", "--concurrency", String(concurrency), "--home", home];
}
