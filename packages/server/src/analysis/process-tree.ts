// An analysis process and what it started, seen through Linux's /proc: the processes it started
// (to end the media decoder with it), their resident memory (ANALYSIS_MEMORY_MB counts all of
// it: the engine keeps audio and features in typed arrays and the decoder runs WebAssembly, all
// outside the V8 heap limit) and the scheduling priority of every thread (Linux keeps a nice
// value per thread, so renicing a process's pid reaches its main thread only). Without /proc
// these answer nothing, and an analysis has its heap limit and its process priority only.
import { readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';

/** A process as /proc knows it: a pid alone may be reused once the process is gone. */
export interface ProcessRef {
  pid: number;
  /** Start time in clock ticks since boot (field 22 of /proc/<pid>/stat). */
  start: number;
}

const MAX_DESCENDANTS = 256;

function read(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** The stat fields after the command name (which may hold spaces and parentheses). */
function statFields(pid: number): string[] | null {
  const stat = read(`/proc/${pid}/stat`);
  if (stat === null) return null;
  return stat.slice(stat.lastIndexOf(')') + 2).trim().split(' ');
}

/** The process's one-letter state (R, S, Z...), or null when it does not exist. */
export function processState(pid: number): string | null {
  return statFields(pid)?.[0] ?? null;
}

function startTime(pid: number): number | null {
  // Fields are numbered from 1 with pid and comm: the state is field 3, the start time field 22.
  const start = statFields(pid)?.[22 - 3];
  return start === undefined ? null : Number(start);
}

/** The ids of a process's threads (none when it is gone or there is no /proc). */
function threadIds(pid: number): string[] {
  try {
    return readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
}

/** The process's children, from every thread's `children` list. */
export function childPids(pid: number): number[] {
  const out: number[] = [];
  for (const tid of threadIds(pid)) {
    for (const s of (read(`/proc/${pid}/task/${tid}/children`) ?? '').split(' ')) if (s.trim() !== '') out.push(Number(s));
  }
  return out;
}

/** Children, their children and so on (at most 256), with their start times. */
export function descendants(pid: number): ProcessRef[] {
  const out: ProcessRef[] = [];
  const queue = childPids(pid);
  while (queue.length > 0 && out.length < MAX_DESCENDANTS) {
    const p = queue.shift() as number;
    const start = startTime(p);
    if (start === null || out.some((r) => r.pid === p)) continue;
    out.push({ pid: p, start });
    queue.push(...childPids(p));
  }
  return out;
}

/** Whether the process is still the one that was seen (not gone, not a reused pid, not a zombie). */
export function isSameLiveProcess(ref: ProcessRef): boolean {
  return startTime(ref.pid) === ref.start && processState(ref.pid) !== 'Z';
}

/** Resident memory of the process in bytes (VmRSS), or null when it cannot be read. */
export function residentBytes(pid: number): number | null {
  const m = /^VmRSS:\s+(\d+) kB/m.exec(read(`/proc/${pid}/status`) ?? '');
  return m ? Number(m[1]) * 1024 : null;
}

/** Resident memory of the process and of the processes listed, in bytes (null without /proc). */
export function treeResidentBytes(pid: number, tree: ProcessRef[]): number | null {
  const own = residentBytes(pid);
  if (own === null) return null;
  return tree.reduce((sum, r) => sum + (residentBytes(r.pid) ?? 0), own);
}

/** Sets the nice value of every thread of this process (Linux); elsewhere, of the process. */
export function setOwnPriority(nice: number): void {
  let tids: string[] = [];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    // Not Linux: priorities are per process there.
  }
  if (tids.length === 0) tids = ['0'];
  for (const tid of tids) {
    try {
      os.setPriority(Number(tid), nice);
    } catch {
      // A thread that ended meanwhile, or a platform that refuses: the main thread's value stays.
    }
  }
}

/** The scheduling policy of every thread of a process (Linux: 0 normal, 3 batch, 5 idle), for tests and benches. */
export function threadPolicies(pid: number): number[] {
  return threadStatField(pid, 41);
}

/** The nice value of every thread of a process (Linux), for tests and benches. */
export function threadPriorities(pid: number): number[] {
  return threadStatField(pid, 19);
}

function threadStatField(pid: number, field: number): number[] {
  const out: number[] = [];
  for (const tid of threadIds(pid)) {
    const stat = read(`/proc/${pid}/task/${tid}/stat`);
    const value = stat === null ? undefined : stat.slice(stat.lastIndexOf(')') + 2).trim().split(' ')[field - 3];
    if (value !== undefined) out.push(Number(value));
  }
  return out;
}
