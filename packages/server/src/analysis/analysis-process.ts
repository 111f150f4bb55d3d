// Runs media analyses in child Node processes (analysis.child.ts), so that the API's process
// keeps its cores: the child runs at a lower scheduling priority (ANALYSIS_NICE added to the
// service's nice value, on every thread of the child and so on the media decoder it starts), its
// V8 heap is capped with --max-old-space-size and its resident memory, the decoder's included,
// is watched (both ANALYSIS_MEMORY_MB). The engine's own errors (media_unreadable,
// no_speech_detected) keep their code. A child over its memory limit is killed and rejects with
// `analysis_out_of_memory` (the same media would run out again); a child that crashes or is
// killed rejects with a plain error, which the worker retries and then records as internal_error.
// An abort kills the child and what it started; a failed analysis settles only once the child
// has exited, so a service that awaited its running analyses leaves no process behind. A child
// that answered with a result may run another analysis: analysis-pool.ts decides which.
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
  /** false: the child runs at its nice value alone, not under SCHED_IDLE (ANALYSIS_SCHEDULING=normal). */
  idleScheduling?: boolean;
  /** While the API is busy the child is paused but for this share of the time (ANALYSIS_MIN_SHARE_PCT / 100; 1: never). */
  minShare?: number;
  /** Where the child keeps the engine's compiled code between analyses (analysis.child.ts); none: compiled at every start. */
  compileCacheDir?: string;
  /** The deployment's ONNX speaker embedding network (SPEAKER_EMBEDDING_MODEL), checked at start. */
  speakerEmbeddingModel?: string;
  /** The deployment's ONNX speaker segmentation network (SEGMENTATION_MODEL), checked at start. */
  segmentationModel?: string;
  onProgress: (stage: AnalysisStage, fraction: number) => void;
  signal: AbortSignal;
}

/** What the parent sends the child, once. */
export interface ChildStart {
  path: string;
  transcript: Transcript | null;
  speakers?: SpeakerCountHint;
  maxDurationSec: number;
  speakerEmbeddingModel?: string;
  segmentationModel?: string;
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
 * set either way. `idle` false (ANALYSIS_SCHEDULING=normal) leaves chrt out: SCHED_IDLE gets a
 * core only when no normal thread wants it, so on a host whose other work keeps every core busy
 * (another service, a test suite) an idle analysis waits as long as that work runs.
 */
function startChild(entry: string, nice: number, idle: boolean, memoryLimitMb: number, compileCacheDir: string | undefined): ChildProcess {
  // --single-threaded: V8 compiles and collects garbage on the main thread, so one analysis keeps
  // one core busy. Its helper threads kept recompiling the engine's hot code in every analysis
  // (about 80 ms of 770 ms of CPU for a 300 s recording in a warm process, on the 2-core test
  // host) and, with WORKER_CONCURRENCY analyses on as many cores, only competed with the other
  // analyses: without them an analysis takes 7 % less CPU and 3 % longer alone, and 2 workers
  // analyse 12 % more audio per second (bench/postgres.ts workers; docs/deploy.md).
  const execArgv = [`--max-old-space-size=${memoryLimitMb}`, '--single-threaded', '--disable-warning=ExperimentalWarning'];
  const options = {
    // Structured clone, as between threads: typed arrays and nested objects cross unchanged.
    serialization: 'advanced' as const,
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'] as ('ignore' | 'pipe' | 'ipc')[],
    // The process that reads hostile media gets none of the service's secrets (SERVICE_API_KEY...).
    env: {},
  };
  const childArgs = [String(nice), ...(compileCacheDir ? [compileCacheDir] : [])];
  const setpriv = tool('setpriv');
  const chrt = idle ? tool('chrt') : null;
  const command = [
    ...(setpriv ? [setpriv, '--pdeathsig', 'SIGKILL', '--'] : []),
    ...(chrt ? [chrt, '--idle', '0'] : []),
    process.execPath, ...execArgv, entry, ...childArgs,
  ];
  const [file, ...args] = command as [string, ...string[]];
  if (file !== process.execPath) return spawn(file, args, options);
  return fork(entry, childArgs, { ...options, execPath: process.execPath, execArgv });
}

/** How the analysis process is started: processes started alike may run each other's analyses. */
export interface ProcessSettings {
  nice: number;
  /** Under SCHED_IDLE where chrt exists (ANALYSIS_SCHEDULING=idle), or at the nice value alone. */
  idle: boolean;
  memoryLimitMb: number;
  compileCacheDir: string | undefined;
  entry: string;
  /** false: the heap limit alone stops it (as where there is no /proc). */
  watchResident: boolean;
}

export function processSettings(input: ChildAnalysisInput, options: { entry?: string; watchResident?: boolean } = {}): ProcessSettings {
  return {
    nice: childNice(input.niceIncrement ?? DEFAULT_ANALYSIS_NICE),
    idle: input.idleScheduling !== false,
    memoryLimitMb: input.memoryLimitMb,
    compileCacheDir: input.compileCacheDir,
    entry: options.entry ?? ENTRY,
    watchResident: options.watchResident !== false,
  };
}

/** What the process is doing now: the handlers of the analysis it runs, or none (idle). */
interface Running {
  onMessage(m: ChildMessage): void;
  onExit(code: number | null, signal: NodeJS.Signals | null): void;
}

/**
 * One analysis process. It runs one analysis at a time, and may run another after a result (the
 * pool decides: analysis-pool.ts); after an error, an abort or a memory overrun it ends. Every
 * analysis settles with a result, or with its error once the process has exited.
 */
export class AnalysisProcess {
  readonly settings: ProcessSettings;
  /** Analyses that ended with a result. */
  results = 0;
  private readonly child: ChildProcess;
  private readonly pid: number | undefined;
  private stderr = '';
  /** What the process started (so that a crash does not leave it running). */
  private tree: ProcessRef[] = [];
  private running: Running | null = null;
  private exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  /** Resolves once the process has exited and its stderr is read (it tells a full heap from a crash). */
  readonly exited: Promise<void>;

  constructor(settings: ProcessSettings) {
    this.settings = settings;
    this.child = startChild(settings.entry, settings.nice, settings.idle, settings.memoryLimitMb, settings.compileCacheDir);
    this.pid = this.child.pid;
    // The main thread at once (the threads it starts inherit it); the child does its other threads.
    if (this.pid !== undefined) {
      try {
        os.setPriority(this.pid, settings.nice);
      } catch {
        // The child sets its own priority too.
      }
    }
    this.child.stderr?.on('data', (d: Buffer) => {
      this.stderr = (this.stderr + d.toString()).slice(-4000);
    });
    this.child.on('message', (m: ChildMessage) => this.running?.onMessage(m));
    this.exited = new Promise((resolve) => {
      const done = (code: number | null, signal: NodeJS.Signals | null): void => {
        if (this.exit) return;
        this.exit = { code, signal };
        this.running?.onExit(code, signal);
        resolve();
      };
      // The processes it started are killed at its exit, in case one of them holds the stderr pipe open.
      this.child.once('exit', (code, signal) => {
        this.killStrays();
        const closing = setTimeout(() => done(code, signal), 2000);
        this.child.once('close', () => {
          clearTimeout(closing);
          done(code, signal);
        });
      });
      this.child.once('error', (err) => {
        // No process was started (no exit follows), or one that cannot be signalled: fail now.
        if (this.pid === undefined || this.child.exitCode !== null) {
          this.stderr = `The analysis process could not be started: ${err.message}`;
          done(null, null);
        }
      });
    });
    this.idle(true);
  }

  /** Whether it can take another analysis. */
  get alive(): boolean {
    return this.exit === null && this.child.exitCode === null && this.child.signalCode === null && this.pid !== undefined;
  }

  /** Resident memory of the process and what it started, or null where unknown. */
  residentBytes(): number | null {
    return this.pid === undefined ? null : treeResidentBytes(this.pid, descendants(this.pid));
  }

  /** Kills the process and what it started; resolves once it has exited (which keeps the event loop until then). */
  end(): Promise<void> {
    if (this.alive) this.idle(false);
    this.kill();
    return this.exited;
  }

  /**
   * An idle process does not keep the service's event loop alive (the pool ends it; the kernel
   * ends it with the service), a busy one does.
   */
  private idle(on: boolean): void {
    type Handle = { ref?(): void; unref?(): void } | null | undefined;
    const handles: Handle[] = [this.child, (this.child as { channel?: Handle }).channel, this.child.stderr as Handle];
    for (const h of handles) (on ? h?.unref : h?.ref)?.call(h);
  }

  private kill(): void {
    if (!this.alive) return; // exited: its pid may be another process's now
    if (this.pid !== undefined) this.tree = [...this.tree, ...descendants(this.pid).filter((d) => !this.tree.some((t) => t.pid === d.pid))];
    this.child.kill('SIGKILL');
    this.killStrays();
  }

  private killStrays(): void {
    for (const ref of this.tree) {
      if (!isSameLiveProcess(ref)) continue;
      try {
        process.kill(ref.pid, 'SIGKILL');
      } catch {
        // Gone meanwhile.
      }
    }
  }

  /** Runs one analysis; one at a time. */
  run(input: ChildAnalysisInput): Promise<MediaAnalysis> {
    return new Promise((resolve, reject) => {
      if (input.signal.aborted) return reject(abortReason(input.signal));
      if (this.running) return reject(new Error('The analysis process is busy.'));
      // One that could not be started says why once it is known.
      if (!this.alive) return void this.exited.then(() => reject(new Error(this.stderr.trim() || 'The analysis process has ended.')));
      const pid = this.pid as number;
      // What an earlier analysis wrote does not explain this one's end.
      this.stderr = '';
      const release = governAnalysis(pid, input.minShare ?? DEFAULT_MIN_SHARE);
      let failure: Error | null = null;
      const fail = (err: Error): void => {
        failure ??= err;
        this.kill();
      };
      const limitMb = this.settings.memoryLimitMb;
      /** Notes what the child started and checks the memory. */
      const look = (): void => {
        if (!this.running) return;
        this.tree = descendants(pid);
        const rss = this.settings.watchResident ? treeResidentBytes(pid, this.tree) : null;
        if (rss !== null && rss > limitMb * 1024 * 1024) fail(new AnalysisOutOfMemory(limitMb, `${Math.round(rss / 1024 / 1024)} MB resident`));
      };
      const watch = setInterval(look, WATCH_MS);
      const onAbort = (): void => fail(abortReason(input.signal));
      input.signal.addEventListener('abort', onAbort, { once: true });
      const finish = (): void => {
        this.running = null;
        clearInterval(watch);
        input.signal.removeEventListener('abort', onAbort);
      };
      this.running = {
        onMessage: (m) => {
          if (m.type === 'progress') {
            look();
            input.onProgress(m.stage, m.fraction);
          } else if (m.type === 'result') {
            if (failure) return; // being killed: settled at its exit
            release();
            finish();
            this.results++;
            this.idle(true);
            resolve(m.result);
          } else failure ??= Object.assign(new Error(m.message), m.code ? { code: m.code } : {}); // it exits after an error
        },
        onExit: (code, signal) => {
          release(true); // reaped: its pid is free for another process now
          finish();
          if (failure) return reject(failure);
          if (/heap out of memory|Reached heap limit/i.test(this.stderr)) return reject(new AnalysisOutOfMemory(limitMb, 'the JavaScript heap is full'));
          const last = this.stderr.trim().split('\n').slice(-2).join(' ').slice(0, 300);
          if (code === null && signal === null) return reject(new Error(last || 'The analysis process could not be started.'));
          reject(new Error(`The analysis process ${signal ? `was killed (${signal})` : `exited (${code})`} without a result${last ? `: ${last}` : ''}.`));
        },
      };
      this.idle(false);
      const start: ChildStart = {
        path: input.path,
        transcript: input.transcript,
        ...(input.speakers ? { speakers: input.speakers } : {}),
        maxDurationSec: input.maxDurationSec,
        ...(input.speakerEmbeddingModel ? { speakerEmbeddingModel: input.speakerEmbeddingModel } : {}),
        ...(input.segmentationModel ? { segmentationModel: input.segmentationModel } : {}),
      };
      this.child.send(start, (err) => {
        if (err) fail(new Error(`The analysis process did not take its input: ${err.message}`));
      });
    });
  }
}

/**
 * Analyses the media in a process of its own, which ends with it: the promise settles once the
 * process has exited. `entry` replaces the child's program (tests give one that runs out of
 * memory or hangs; it speaks the same messages); `watchResident: false` leaves the heap limit
 * alone to stop it (as where there is no /proc).
 */
export async function analyzeInChild(input: ChildAnalysisInput, options: { entry?: string; watchResident?: boolean } = {}): Promise<MediaAnalysis> {
  if (input.signal.aborted) throw abortReason(input.signal);
  const proc = new AnalysisProcess(processSettings(input, options));
  try {
    return await proc.run(input);
  } finally {
    await proc.end();
  }
}
