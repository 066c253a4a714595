import { runCli } from "../../scorer/src/cli/main.js";

/** Runs the CLI in process with captured output; `env` replaces the process environment. */
export async function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await runCli(["node", "ragmeter", ...args], {
    out: (t) => (out += t.endsWith("\n") ? t : `${t}\n`),
    err: (t) => (err += t.endsWith("\n") ? t : `${t}\n`),
    interactive: false,
    env,
    cwd: process.cwd(),
  });
  return { code, out, err };
}
