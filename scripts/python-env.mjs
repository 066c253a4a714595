#!/usr/bin/env node
// The Python environment the tests under tests/python run their programs with (issue 28): a virtual
// environment with the exact pins of tests/python/requirements.txt, kept in the user cache so a
// second run does not reinstall.
//
//   node scripts/python-env.mjs        create it when missing, print the interpreter's path
//
// Where: ${XDG_CACHE_HOME:-~/.cache}/ragmeter/py-<first 16 hex of the requirements' sha256>/venv;
// a marker file `.ready` beside it is written once pip has installed everything, so a half-built
// environment (an interrupted install) is removed and built again. A new requirements file gives a
// new directory, and the environments of earlier requirements are removed once it is ready.
//
// Environment (optional):
//   RAGMETER_TEST_PYTHON  an interpreter whose environment already has the requirements: used as it
//                         is, nothing is created
//   RAGMETER_PYTHON_BASE  the interpreter the environment is created with (default python3; 3.10 or later)
//
// Exported: pythonEnv(options) → {python, created, seconds}; used by .ci/run (through this script)
// and by the tests (tests/helpers/python.ts).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { runIfMain } from "./lib/process.mjs";

const root = resolve(import.meta.dirname, "..");
export const REQUIREMENTS = join(root, "tests", "python", "requirements.txt");

/** A clear one-line failure to create the environment. */
export class PythonEnvError extends Error {}

/** The directory of the environment for the requirements' current content. */
export function pythonEnvDir(env = process.env) {
  const hash = createHash("sha256").update(readFileSync(REQUIREMENTS)).digest("hex").slice(0, 16);
  const cache = env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(cache, "ragmeter", `py-${hash}`);
}

function run(cmd, args, what, log) {
  const r = spawnSync(cmd, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 * 1024 * 1024 });
  if (r.error) throw new PythonEnvError(`${what}: ${r.error.message}`);
  if (r.status !== 0) {
    log(`${r.stdout ?? ""}${r.stderr ?? ""}`.trim().split("\n").slice(-30).join("\n"));
    throw new PythonEnvError(`${what} failed (exit ${r.status}); its last lines are above`);
  }
  return r.stdout;
}

/**
 * The interpreter of the test environment, created first when missing.
 * @param {{env?: Record<string, string|undefined>, log?: (msg: string) => void}} [options]
 * @returns {{python: string, created: boolean, seconds: number}}
 */
export function pythonEnv(options = {}) {
  const env = options.env ?? process.env;
  const log = options.log ?? ((m) => process.stderr.write(`${m}\n`));
  const given = env.RAGMETER_TEST_PYTHON;
  if (given) {
    if (!existsSync(given)) throw new PythonEnvError(`RAGMETER_TEST_PYTHON=${given} does not exist`);
    return { python: given, created: false, seconds: 0 };
  }
  const dir = pythonEnvDir(env);
  const venv = join(dir, "venv");
  const python = join(venv, "bin", "python");
  const marker = join(dir, ".ready");
  if (existsSync(marker) && existsSync(python)) return { python, created: false, seconds: 0 };
  const started = Date.now();
  const base = env.RAGMETER_PYTHON_BASE || "python3";
  const version = run(base, ["-c", "import sys; print('%d.%d' % sys.version_info[:2])"], `${base} (set RAGMETER_PYTHON_BASE to a Python 3.10 or later)`, log).trim();
  const [major, minor] = version.split(".").map(Number);
  if (major !== 3 || minor < 10) throw new PythonEnvError(`${base} is Python ${version}; the tests need 3.10 or later (set RAGMETER_PYTHON_BASE)`);
  rmSync(dir, { recursive: true, force: true });
  log(`creating the Python test environment in ${venv} (Python ${version}, ${REQUIREMENTS})`);
  run(base, ["-m", "venv", venv], `${base} -m venv ${venv}`, log);
  run(python, ["-m", "pip", "install", "--disable-pip-version-check", "--no-input", "--quiet", "-r", REQUIREMENTS], "pip install -r tests/python/requirements.txt", log);
  writeFileSync(marker, `${new Date().toISOString()}\n`);
  // Environments of earlier requirements are of no further use: remove them (a few hundred MB each).
  for (const old of readdirSync(dirname(dir))) if (old.startsWith("py-") && old !== basename(dir)) rmSync(join(dirname(dir), old), { recursive: true, force: true });
  const seconds = Math.round((Date.now() - started) / 100) / 10;
  log(`Python test environment ready in ${seconds} s`);
  return { python, created: true, seconds };
}

async function main() {
  const r = pythonEnv();
  console.log(r.python);
  return 0;
}

runIfMain(import.meta.url, main, "python-env", PythonEnvError);
