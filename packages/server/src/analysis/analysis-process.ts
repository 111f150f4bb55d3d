// Runs one media analysis in a child Node process (analysis.child.ts), so that the API's process
// keeps its cores: the child runs at a lower scheduling priority (ANALYSIS_NICE added to the
// service's nice value, on every thread of the child and so on the media decoder it starts), its
// V8 heap is capped with --max-old-space-size and its resident memory, the decoder's included,
// is watched (both ANALYSIS_MEMORY_MB). The engine's own errors (media_unreadable,
// no_speech_detected) keep their code. A child over its memory limit is killed and rejects with
// `analysis_out_of_memory` (the same media would run out again); a child that crashes or is
// killed rejects with a plain error, which the worker retries and then records as internal_error.
// An abort kills the child and what it started; the promise settles only once the child has
// exited, so a service that awaited its running analyses leaves no process behind.
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import type { AnalysisStage, MediaAnalysis, SpeakerCountHint, Transcript } from '@rapport/analysis';
import { descendants, isSameLiveProcess, treeResidentBytes, type ProcessRef } from './process-tree.ts';
import { governAnalysis } from './governor.ts';

const ENTRY = fileURLToPath(new URL('./analysis.child.ts', import.meta.url));
/** How often the child's resident memory is read. */
const WATCH_MS = 200;
/** A child that sent its result and has not exited after this long is killed. */
const EXIT_GRACE_MS = 5000;
export const DEFAULT_ANALYSIS_NICE = 10;
export const DEFAULT_MIN_SHARE = 0.2;

export interface ChildAnalysisInput {
  path: string;
  transcript: Transcript | null;
  /** The user's speaker-count hints for this media, when any. */
  speakers?: SpeakerCountHint;
  maxDurationSec: number;
  memoryLimitMb: number;
  /** Added to this process's nice value for the child (ANALYSIS_NICE); the result is capped at 19. */
  niceIncrement?: number;
  /** While the API is busy the child is paused but for this share of the time (ANALYSIS_MIN_SHARE_PCT / 100; 1: never). */
  minShare?: number;
  /** Where the child keeps the engine's compiled code between analyses (analysis.child.ts); none: compiled at every start. */
  compileCacheDir?: string;
  onProgress: (stage: AnalysisStage, fraction: number) => void;
  signal: AbortSignal;
}

/** What the parent sends the child, once. */
export interface ChildStart {
  path: string;
  transcript: Transcript | null;
  speakers?: SpeakerCountHint;
  maxDurationSec: number;
}

/** What the child sends back: progress, then one result or one error. */
export type ChildMessage =
  | { type: 'progress'; stage: AnalysisStage; fraction: number }
  | { type: 'result'; result: MediaAnalysis }
  | { type: 'error'; code: string | null; message: string };

export class AnalysisOutOfMemory extends Error {
  readonly code = 'analysis_out_of_memory';
  constructor(limitMb: number, how: string) {
    super(`The analysis ran out of its ${limitMb} MB memory limit (ANALYSIS_MEMORY_MB): ${how}.`);
    this.name = 'AnalysisOutOfMemory';
  }
}

const abortReason = (signal: AbortSignal): Error => (signal.reason instanceof Error ? signal.reason : new Error('analysis aborted'));

/** The child's nice value: this process's plus the increment, within what the system allows. */
function childNice(increment: number): number {
  let own = 0;
  try {
    own = os.getPriority();
  } catch {
    // Unknown: count from the default.
  }
  return Math.max(own, Math.min(19, own + increment));
}

const tools = new Map<string, string | null>();
/** A util-linux tool (Linux only), or null where there is none. */
function tool(name: 'chrt' | 'setpriv'): string | null {
  if (!tools.has(name)) tools.set(name, process.platform === 'linux' ? ([`/usr/bin/${name}`, `/bin/${name}`].find((p) => existsSync(p)) ?? null) : null);
  return tools.get(name) ?? null;
}

/**
 * Starts the child. Where util-linux has them: through `setpriv --pdeathsig SIGKILL`, so that the
 * kernel kills the child when the service dies (even while the governor holds it stopped, when it
 * could not notice), and `chrt --idle 0`, so that every thread of the child (and the decoder it
 * starts) runs under SCHED_IDLE: a woken API thread takes the core from it at once, which a nice
 * value alone does not promise. Both keep the pid (they exec). Else with fork; the nice value is
 * set either way.
 */
function startChild(entry: string, nice: number, memoryLimitMb: number, compileCacheDir: string | undefined): ChildProcess {
  const execArgv = [`--max-old-space-size=${memoryLimitMb}`, '--disable-warning=ExperimentalWarning'];
  const options = {
    // Structured clone, as between threads: typed arrays and nested objects cross unchanged.
    serialization: 'advanced' as const,
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'] as ('ignore' | 'pipe' | 'ipc')[],
    // The process that reads hostile media gets none of the service's secrets (SERVICE_API_KEY...).
    env: {},
  };
  const childArgs = [String(nice), ...(compileCacheDir ? [compileCacheDir] : [])];
  const setpriv = tool('setpriv');
  const chrt = tool('chrt');
  const command = [
    ...(setpriv ? [setpriv, '--pdeathsig', 'SIGKILL', '--'] : []),
    ...(chrt ? [chrt, '--idle', '0'] : []),
    process.execPath, ...execArgv, entry, ...childArgs,
  ];
  const [file, ...args] = command as [string, ...string[]];
  if (file !== process.execPath) return spawn(file, args, options);
  return fork(entry, childArgs, { ...options, execPath: process.execPath, execArgv });
}

/**
 * Analyses the media in a child process. `entry` replaces the child's program (tests give one
 * that runs out of memory or hangs; it speaks the same messages); `watchResident: false` leaves
 * the heap limit alone to stop it (as where there is no /proc).
 */
export function analyzeInChild(input: ChildAnalysisInput, options: { entry?: string; watchResident?: boolean } = {}): Promise<MediaAnalysis> {
  return new Promise((resolve, reject) => {
    if (input.signal.aborted) return reject(abortReason(input.signal));
    const nice = childNice(input.niceIncrement ?? DEFAULT_ANALYSIS_NICE);
    const child = startChild(options.entry ?? ENTRY, nice, input.memoryLimitMb, input.compileCacheDir);
    const pid = child.pid;
    const release = pid === undefined ? () => undefined : governAnalysis(pid, input.minShare ?? DEFAULT_MIN_SHARE);
    // The main thread at once (the threads it starts inherit it); the child does its other threads.
    if (pid !== undefined) {
      try {
        os.setPriority(pid, nice);
      } catch {
        // The child sets its own priority too.
      }
    }
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-4000);
    });
    let result: MediaAnalysis | null = null;
    let failure: Error | null = null;
    let tree: ProcessRef[] = [];
    let exitTimer: NodeJS.Timeout | null = null;
    let settled = false;

    /** Kills the child and every process it started that is still the one seen. */
    const kill = (): void => {
      if (child.exitCode !== null || child.signalCode !== null) return; // exited: its pid may be another process's now
      if (pid !== undefined) tree = [...tree, ...descendants(pid).filter((d) => !tree.some((t) => t.pid === d.pid))];
      child.kill('SIGKILL');
      killStrays();
    };
    const killStrays = (): void => {
      for (const ref of tree) {
        if (!isSameLiveProcess(ref)) continue;
        try {
          process.kill(ref.pid, 'SIGKILL');
        } catch {
          // Gone meanwhile.
        }
      }
    };
    const fail = (err: Error): void => {
      failure ??= err;
      kill();
    };

    const limitBytes = input.memoryLimitMb * 1024 * 1024;
    /** Notes what the child started (so that a crash does not leave it running) and checks the memory. */
    const look = (): void => {
      if (pid === undefined || settled) return;
      tree = descendants(pid);
      const rss = options.watchResident === false ? null : treeResidentBytes(pid, tree);
      if (rss !== null && rss > limitBytes) fail(new AnalysisOutOfMemory(input.memoryLimitMb, `${Math.round(rss / 1024 / 1024)} MB resident`));
    };
    const watch = setInterval(look, WATCH_MS);
    const onAbort = (): void => fail(abortReason(input.signal));
    input.signal.addEventListener('abort', onAbort, { once: true });

    child.on('message', (m: ChildMessage) => {
      if (m.type === 'progress') {
        look();
        input.onProgress(m.stage, m.fraction);
      } else if (m.type === 'result') {
        result = m.result;
        release(); // let it run to its exit
        exitTimer = setTimeout(kill, EXIT_GRACE_MS);
      } else failure ??= Object.assign(new Error(m.message), m.code ? { code: m.code } : {});
    });
    const settle = (code: number | null, signal: NodeJS.Signals | null): void => {
      if (settled) return;
      settled = true;
      release(true);
      clearInterval(watch);
      if (exitTimer) clearTimeout(exitTimer);
      input.signal.removeEventListener('abort', onAbort);
      if (failure) return reject(failure);
      if (result) return resolve(result);
      if (/heap out of memory|Reached heap limit/i.test(stderr)) return reject(new AnalysisOutOfMemory(input.memoryLimitMb, 'the JavaScript heap is full'));
      const last = stderr.trim().split('\n').slice(-2).join(' ').slice(0, 300);
      reject(new Error(`The analysis process ${signal ? `was killed (${signal})` : `exited (${code})`} without a result${last ? `: ${last}` : ''}.`));
    };
    // Settled once the child's stderr is read to its end (it tells a full heap from a crash); the
    // processes it started are killed at its exit, in case one of them holds that pipe open.
    child.once('exit', (code, signal) => {
      release(true); // reaped: its pid is free for another process now
      if (!result) killStrays();
      const closing = setTimeout(() => settle(code, signal), 2000);
      child.once('close', () => {
        clearTimeout(closing);
        settle(code, signal);
      });
    });
    child.once('error', (err) => {
      // No process was started (no exit follows), or one that cannot be signalled: fail now.
      if (pid === undefined || child.exitCode !== null) {
        failure ??= new Error(`The analysis process could not be started: ${err.message}`);
        settle(null, null);
      }
    });
    if (pid !== undefined) {
      const start: ChildStart = { path: input.path, transcript: input.transcript, ...(input.speakers ? { speakers: input.speakers } : {}), maxDurationSec: input.maxDurationSec };
      child.send(start, (err) => {
        if (err) fail(new Error(`The analysis process did not take its input: ${err.message}`));
      });
    }
  });
}
