// What the growth benches (N against 4N) time: CPU, not wall-clock, so that another process on
// the machine moves the ratio less.

/** Median CPU seconds of three runs of `fn`, after one to warm up. */
export function cpuSec(fn: () => unknown): number {
  fn();
  const runs: number[] = [];
  for (let r = 0; r < 3; r++) {
    const start = process.cpuUsage();
    fn();
    const used = process.cpuUsage(start);
    runs.push((used.user + used.system) / 1e6);
  }
  return runs.sort((a, b) => a - b)[1] as number;
}
