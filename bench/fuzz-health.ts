// /healthz under the request fuzzer (issue 20): the p99 of /healthz, probed every 20 ms from a
// thread of its own, while the fuzzer of packages/server/test/fuzz-requests.ts sends
// FUZZ_REQUESTS mutated requests (default 10,000: a few hundred probes, as the idle windows give;
// BENCH_QUICK=1: 2,000; seed FUZZ_SEED, default 20) from 4 connections, against the p99 of the
// same probe with the server idle, in the same run: IDLE_SEC before the fuzzing and IDLE_SEC
// after, pooled, so that a drift of the machine's load weighs on both sides (as in
// bench/liveness.ts). The ratio is the figure: the milliseconds follow
// the host's load (fuzz.test.ts asserted p99 < 400 ms until it failed at 491 ms on a busy host; it
// now checks only that every request and probe is answered, and prints the p99).
// Run alone: node_modules/.bin/node bench/fuzz-health.ts
import { buildTestApp } from '../packages/server/test/helpers.ts';
import { FUZZ_ENV, fuzzTarget, percentile, probeHealth, runFuzz } from '../packages/server/test/fuzz-requests.ts';

const QUICK = process.env.BENCH_QUICK === '1';
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? (QUICK ? 2000 : 10_000));
const SEED = Number(process.env.FUZZ_SEED ?? 20);
const IDLE_SEC = QUICK ? 2 : 5;

/** /healthz probe times with nothing else asking the server anything, for `seconds`. */
async function idle(port: number, seconds: number): Promise<number[]> {
  const prober = probeHealth(port);
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  return (await prober.stop()).times;
}

export async function benchFuzzHealth(): Promise<Record<string, string | number>> {
  const t = await buildTestApp(FUZZ_ENV);
  try {
    const target = await fuzzTarget(t);
    const idleBefore = await idle(target.port, IDLE_SEC);
    const prober = probeHealth(target.port);
    let serverErrors = 0;
    let unanswered = 0;
    const started = performance.now();
    await runFuzz(target, REQUESTS, SEED, (_req, r) => {
      if (r.status >= 500) serverErrors++;
      else if (r.status < 0) unanswered++;
    });
    const fuzzSec = (performance.now() - started) / 1000;
    const { times: busy, bad } = await prober.stop();
    const idleAfter = await idle(target.port, IDLE_SEC);
    const idleTimes = [...idleBefore, ...idleAfter];
    const idleP99 = percentile(idleTimes, 0.99);
    const busyP99 = percentile(busy, 0.99);
    const ms = (x: number) => Number(x.toFixed(1));
    return {
      'fuzz requests (seed), seconds': `${REQUESTS} (${SEED}), ${fuzzSec.toFixed(1)} s`,
      'fuzz answers 5xx / unanswered': `${serverErrors} / ${unanswered}`,
      [`/healthz idle, ${IDLE_SEC} s before + ${IDLE_SEC} s after: probes, p50 ms, p99 ms`]: `${idleTimes.length}, ${ms(percentile(idleTimes, 0.5))}, ${ms(idleP99)}`,
      '/healthz while fuzzing: probes, p50 ms, p99 ms': `${busy.length}, ${ms(percentile(busy, 0.5))}, ${ms(busyP99)}`,
      '/healthz while fuzzing: not 200': bad.length,
      '/healthz p99 fuzzing ÷ idle': Number((busyP99 / idleP99).toFixed(2)),
    };
  } finally {
    await t.close();
  }
}

if (import.meta.main) console.table(await benchFuzzHealth());
