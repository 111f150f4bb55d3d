// Keeps analysis processes warm between analyses of one workspace. A fresh analysis process spends
// about a third of its CPU before and beside its first analysis: Node starts, loads the engine, and
// V8's compiler threads optimise the engine's hot code again (on the 2-core test host, 1.20 s of
// CPU for a 300 s recording in a fresh process against about 0.80 s in one that analysed before).
// So a process that answered with a result takes the next analysis of the same workspace, up to
// ANALYSIS_PROCESS_REUSE analyses, and is never handed another workspace's media: what one
// tenant's media could do to a process stays with that tenant's media. A process ends after an
// error, an abort or a memory overrun (analysis-process.ts), when its resident memory after an
// analysis is over a quarter of ANALYSIS_MEMORY_MB (so that the next analysis has its limit
// nearly whole), after IDLE_MS without work, and when the service closes. An analysis that runs
// out of memory in a reused process runs once more in a fresh one, so that
// analysis_out_of_memory always means the media alone.
import type { MediaAnalysis } from '@rapport/analysis';
import { AnalysisOutOfMemory, AnalysisProcess, processSettings, type ChildAnalysisInput, type ProcessSettings } from './analysis-process.ts';

/** An idle process ends after this long without an analysis. */
export const IDLE_MS = 30_000;

export interface PoolOptions {
  /** Analyses one process may run (ANALYSIS_PROCESS_REUSE); 1: a fresh process for each. */
  reuse: number;
  /** Idle processes kept (WORKER_CONCURRENCY); the longest idle ends first. */
  maxIdle: number;
  idleMs?: number;
  /** Tests: the child's program, and whether its resident memory is watched (analysis-process.ts). */
  entry?: string;
  watchResident?: boolean;
}

interface Idle {
  key: string;
  proc: AnalysisProcess;
  timer: NodeJS.Timeout;
}

const sameSettings = (a: ProcessSettings, b: ProcessSettings): boolean =>
  a.nice === b.nice && a.idle === b.idle && a.memoryLimitMb === b.memoryLimitMb && a.compileCacheDir === b.compileCacheDir && a.entry === b.entry && a.watchResident === b.watchResident;

export class AnalysisProcessPool {
  private readonly options: PoolOptions;
  private idle: Idle[] = [];
  /** Every process started and not yet exited: close() ends them all. */
  private readonly live = new Set<AnalysisProcess>();
  private closed = false;
  /** Processes started so far. */
  started = 0;

  constructor(options: PoolOptions) {
    this.options = options;
  }

  /**
   * Analyses the media; `workspaceId` lets it run in a process that analysed that workspace's
   * media before (none: a process of its own). Settles like analyzeInChild: a failed analysis
   * once its process has exited.
   */
  async analyze(input: ChildAnalysisInput & { workspaceId?: string }): Promise<MediaAnalysis> {
    const settings = processSettings(input, this.options);
    const key = input.workspaceId !== undefined && this.options.reuse > 1 ? input.workspaceId : null;
    const warm = key === null ? null : this.take(key, settings);
    const proc = warm ?? this.start(settings);
    let result: MediaAnalysis;
    try {
      result = await proc.run(input);
    } catch (err) {
      await proc.end();
      // Memory the process kept from its earlier analyses may have counted: once more, fresh.
      if (warm && err instanceof AnalysisOutOfMemory && !input.signal.aborted) return this.analyze({ ...input, workspaceId: undefined });
      throw err;
    }
    // /proc is read only for a process that could be kept.
    const keepable = key !== null && !this.closed && proc.results < this.options.reuse && proc.alive;
    const resident = keepable ? proc.residentBytes() : null;
    if (keepable && (resident === null || resident <= (settings.memoryLimitMb * 1024 * 1024) / 4)) this.keep(key, proc);
    else await proc.end();
    return result;
  }

  /** Ends every process, idle or busy (a busy one's analysis fails); resolves once all have exited. */
  async close(): Promise<void> {
    this.closed = true;
    for (const i of this.idle) clearTimeout(i.timer);
    this.idle = [];
    await Promise.all([...this.live].map((p) => p.end()));
  }

  /** How many processes are idle, and how many are alive in all. */
  counts(): { idle: number; live: number } {
    return { idle: this.idle.length, live: this.live.size };
  }

  private start(settings: ProcessSettings): AnalysisProcess {
    const proc = new AnalysisProcess(settings);
    this.started++;
    this.live.add(proc);
    const gone = () => {
      this.live.delete(proc);
      this.drop(proc);
    };
    proc.exited.then(gone, gone);
    return proc;
  }

  private take(key: string, settings: ProcessSettings): AnalysisProcess | null {
    const i = this.idle.findIndex((e) => e.key === key && sameSettings(e.proc.settings, settings) && e.proc.alive);
    if (i < 0) return null;
    const [entry] = this.idle.splice(i, 1);
    if (!entry) return null;
    clearTimeout(entry.timer);
    return entry.proc;
  }

  private keep(key: string, proc: AnalysisProcess): void {
    const timer = setTimeout(() => {
      this.drop(proc);
      proc.end().catch(() => undefined);
    }, this.options.idleMs ?? IDLE_MS);
    timer.unref();
    this.idle.push({ key, proc, timer });
    while (this.idle.length > this.options.maxIdle) {
      const oldest = this.idle.shift();
      if (!oldest) break;
      clearTimeout(oldest.timer);
      oldest.proc.end().catch(() => undefined);
    }
  }

  private drop(proc: AnalysisProcess): void {
    const i = this.idle.findIndex((e) => e.proc === proc);
    if (i < 0) return;
    const [entry] = this.idle.splice(i, 1);
    if (entry) clearTimeout(entry.timer);
  }
}
