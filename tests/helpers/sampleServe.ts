import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

/** Runs `examples/sample-rag/dist/serve.js` (npm run sample:serve) as a child; resolves with its /ask URL. */
export async function startSampleServeChild(env: Record<string, string>): Promise<{ url: string; child: ChildProcess; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [path.join(root, "examples/sample-rag/dist/serve.js")], {
    env: { ...process.env, PORT: "0", OTEL_BSP_SCHEDULE_DELAY: "50", ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on("data", (d: Buffer) => {
      const m = /at (http:\/\/\S+\/ask)/u.exec(d.toString());
      if (m) resolve(m[1] as string);
    });
    child.on("exit", (c) => reject(new Error(`sample serve exited with ${c}`)));
  });
  return {
    url,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
