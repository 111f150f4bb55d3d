// Pauses the analysis processes while the API is busy. A lower scheduling priority decides who
// gets a core when both want one, but on a machine whose cores share their execution units or
// memory (SMT siblings, virtual CPUs of one host core) an analysis slows the API even when it
// only uses what the API leaves idle: on the 2-vCPU test host a busy loop at SCHED_IDLE took a
// third of the API's throughput. So every 100 ms this process's event-loop utilisation is read;
// while it is over BUSY_ELU the analysis processes are stopped (SIGSTOP), except that over the
// last second each runs at least `minShare` of the time (ANALYSIS_MIN_SHARE_PCT), so that
// analyses still end under a constant load. A process is continued (SIGCONT) as soon as the API
// is no longer busy, and when it is unregistered.
import { performance, type EventLoopUtilization } from 'node:perf_hooks';

const TICK_MS = 100;
const WINDOW_TICKS = 10;
/** Event-loop utilisation over which the API counts as busy. */
export const BUSY_ELU = 0.5;

interface Entry {
  pid: number;
  minShare: number;
  stopped: boolean;
  /** For each of the last ticks, whether the process ran. */
  ran: boolean[];
}

const entries = new Map<number, Entry>();
let timer: NodeJS.Timeout | null = null;
let last: EventLoopUtilization | null = null;
/** Benches hold every analysis stopped to measure the API alone, mid-analysis. */
let held = false;

function signal(e: Entry, stop: boolean): void {
  if (e.stopped === stop) return;
  try {
    process.kill(e.pid, stop ? 'SIGSTOP' : 'SIGCONT');
    e.stopped = stop;
  } catch {
    // Exited meanwhile: its exit unregisters it.
  }
}

function tick(): void {
  const now = performance.eventLoopUtilization();
  const busy = last ? performance.eventLoopUtilization(now, last).utilization > BUSY_ELU : false;
  last = now;
  for (const e of entries.values()) {
    const share = e.ran.filter(Boolean).length / WINDOW_TICKS;
    const run = !held && (!busy || share < e.minShare);
    signal(e, !run);
    e.ran.push(run);
    if (e.ran.length > WINDOW_TICKS) e.ran.shift();
  }
}

/**
 * Puts a running analysis process under the governor; answers the function that releases it:
 * continued if stopped, unless `exited` (its pid may be another process's by then). `minShare`
 * 1 or more: never paused.
 */
export function governAnalysis(pid: number, minShare: number): (exited?: boolean) => void {
  if (minShare >= 1) return () => undefined;
  // A fresh process counts as having run its share: it is paused at once if the API is busy.
  entries.set(pid, { pid, minShare, stopped: false, ran: Array.from({ length: WINDOW_TICKS }, () => true) });
  if (!timer) {
    last = performance.eventLoopUtilization();
    timer = setInterval(tick, TICK_MS);
    timer.unref();
  }
  return (exited = false) => {
    const e = entries.get(pid);
    if (!e) return;
    if (!exited) signal(e, false);
    entries.delete(pid);
    if (entries.size === 0 && timer) {
      clearInterval(timer);
      timer = null;
    }
  };
}

/** Stops every governed analysis until released (benches: the API alone, mid-analysis). */
export function holdAnalyses(on: boolean): void {
  held = on;
  for (const e of entries.values()) signal(e, on);
}

/** How many analysis processes are governed, and how many of them are stopped now. */
export function governed(): { count: number; stopped: number } {
  let stopped = 0;
  for (const e of entries.values()) if (e.stopped) stopped++;
  return { count: entries.size, stopped };
}
