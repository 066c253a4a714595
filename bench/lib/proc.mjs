// CPU and peak RSS of a process and its descendants, from /proc (Linux), for the collector
// benchmarks: a collector may run as a cluster (a primary and its workers), so figures are summed
// over the process tree.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";

const CLK_TCK = 100; // USER_HZ on Linux (sysconf(_SC_CLK_TCK) is 100 on every mainstream kernel config)

/** A `/proc/…/stat` file read: its name (`comm`), parent pid and CPU ticks (user + system); undefined once it is gone. */
function readStat(file) {
  try {
    const s = readFileSync(file, "utf8");
    const f = s.slice(s.lastIndexOf(")") + 2).split(" ");
    return { comm: s.slice(s.indexOf("(") + 1, s.lastIndexOf(")")), ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) };
  } catch {
    return undefined;
  }
}

const procStat = (pid) => readStat(`/proc/${pid}/stat`);

/** pid and its descendants (bounded). */
function tree(pid) {
  const children = new Map();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const st = procStat(Number(name));
    if (st) children.set(st.ppid, [...(children.get(st.ppid) ?? []), Number(name)]);
  }
  const out = [pid];
  for (let i = 0; i < out.length && i < 1000; i++) out.push(...(children.get(out[i]) ?? []));
  return out;
}

/** CPU seconds (user + system) used so far by pid and its descendants. */
export function cpuSeconds(pid) {
  return tree(pid).reduce((sum, p) => sum + (procStat(p)?.ticks ?? 0), 0) / CLK_TCK;
}

/** Resets the peak-RSS marks of the tree (where permitted; otherwise the peak since start is reported). */
export function resetPeakRss(pid) {
  for (const p of tree(pid)) {
    try {
      writeFileSync(`/proc/${p}/clear_refs`, "5");
    } catch {
      /* not permitted: peak since start */
    }
  }
}

/** Summed peak RSS (VmHWM) of the tree, MiB; NaN when nothing could be read. */
export function peakRssMiB(pid) {
  let kb = 0;
  for (const p of tree(pid)) {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, "utf8"));
      if (m) kb += Number(m[1]);
    } catch {
      /* exited */
    }
  }
  return kb > 0 ? kb / 1024 : NaN;
}

/**
 * CPU seconds (user + system) used so far by each thread of this process, summed by thread name
 * (`main` for the main thread; V8's helpers and libuv's pool are named `node`, the embedded
 * engine's threads by their pool: `ThreadPool`, `MergeMutate`, …).
 */
export function threadCpuSeconds() {
  const out = {};
  for (const [, t] of threadTicks(process.pid)) out[t.name] = (out[t.name] ?? 0) + t.ticks / CLK_TCK;
  return out;
}

/** CPU ticks so far of each live thread of process `pid`, by thread id: its name (`main` for the main thread) and ticks. */
function threadTicks(pid) {
  const out = new Map();
  let tids = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out; // the process ended
  }
  for (const tid of tids) {
    const st = readStat(`/proc/${pid}/task/${tid}/stat`);
    if (st !== undefined) out.set(Number(tid), { name: Number(tid) === pid ? "main" : st.comm, ticks: st.ticks });
  }
  return out;
}

/**
 * Samples the threads of `pid` every `everyMs` until `stop()`, which returns CPU seconds by thread
 * name since the start (threads that ended between samples count up to their last sample).
 */
export function threadSampler(pid, everyMs = 250) {
  const base = threadTicks(pid);
  const last = new Map(base);
  const timer = setInterval(() => {
    for (const [tid, t] of threadTicks(pid)) last.set(tid, t);
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      for (const [tid, t] of threadTicks(pid)) last.set(tid, t);
      const out = {};
      for (const [tid, t] of last) out[t.name] = (out[t.name] ?? 0) + (t.ticks - (base.get(tid)?.ticks ?? 0)) / CLK_TCK;
      return out;
    },
  };
}

/** Summed resident memory (VmRSS) of the tree now, MiB; NaN when nothing could be read. */
export function rssMiB(pid) {
  let kb = 0;
  for (const p of tree(pid)) {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, "utf8"));
      if (m) kb += Number(m[1]);
    } catch {
      /* exited */
    }
  }
  return kb > 0 ? kb / 1024 : NaN;
}
