// The figures behind a receipt's `estimatedWaitSec`: the work the worker runs before a new job
// starts. Every workspace's tasks share the worker's slots, media analyses (`media.analyze`) as
// well as jobs (`job.run`), and a claim takes the oldest task of the workspace least recently
// served (queue.store.ts): so ahead of a new job are the tasks running now (any workspace's),
// the tasks its own workspace queued before it (analyses included: the job's own media among
// them), and, of each other workspace's queue, only as many tasks as that workspace gets turns
// before the job's: one per turn of the job's workspace, and one more where the other comes first
// in the turns. Until this was counted, the estimate was the workspace's own jobs alone, and a job
// queued behind analyses or behind other workspaces' turns was told it would start at once.
//
// Read on every job creation; a count of the whole queue costs O(queue), so the queue is read
// once a second at most for the whole process (one read at a time) and kept current between by
// this process's own job creations and endings; a workspace's turn and its jobs' mean duration
// once a second each. Another process's changes, and this one's uploads, show within a second:
// an estimate may be that stale. The same on both backends; each gives its own queries.
import { SingleFlight } from '../single-flight.ts';
import type { TaskKind } from '../queue/queue.store.ts';

/** Without history, a job is taken to run about 5 s (a short media analysis on one core). */
export const DEFAULT_JOB_SEC = 5;
/** An analysis starts its process and loads the engine (analysis-pool.ts: under half a second of CPU), rounded up. */
export const ANALYSIS_START_SEC = 1;
/**
 * Seconds of media an analysis gets through per second: the engine's speed goal (at least 30×
 * real time, docs/analysis-speech.md). It is faster on an idle host, slower on a busy one (the
 * analyses run at idle priority).
 */
export const ANALYSIS_SPEED = 30;

/** Tasks by kind: jobs, analyses, and the seconds of media those analyses read. */
export interface Work {
  jobs: number;
  analyses: number;
  mediaSec: number;
}

/** The queue as the estimate sees it. */
export interface QueueSnapshot {
  /** Every workspace's tasks that a worker holds now. */
  running: Work;
  /** Each workspace's tasks waiting to be claimed, and its last claim (its place in the turns). */
  queued: Map<string, { lastClaim: number; work: Work }>;
}

/** One group of the queue's tasks, as the store counts them. */
export interface QueueRow {
  workspace_id: string;
  /** The workspace's last claim (queue_turns), null when it has no row there. */
  last_claim: number | null;
  kind: TaskKind;
  /** 1: held by a worker whose lease runs; 0: waiting (a lease run out counts as waiting: it is claimed again). */
  running: number;
  n: number;
  /** The media seconds of the group's analyses (0 for jobs, and for media of unknown duration). */
  media_sec: number | null;
}

const noWork = (): Work => ({ jobs: 0, analyses: 0, mediaSec: 0 });
const tasksOf = (w: Work): number => w.jobs + w.analyses;

/** The queue's groups as a snapshot. */
export function snapshotOf(rows: readonly QueueRow[]): QueueSnapshot {
  const running = noWork();
  const queued = new Map<string, { lastClaim: number; work: Work }>();
  for (const r of rows) {
    let work = running;
    if (!r.running) {
      let entry = queued.get(r.workspace_id);
      if (!entry) queued.set(r.workspace_id, (entry = { lastClaim: r.last_claim ?? 0, work: noWork() }));
      work = entry.work;
    }
    if (r.kind === 'media.analyze') {
      work.analyses += r.n;
      work.mediaSec += r.media_sec ?? 0;
    } else {
      work.jobs += r.n;
    }
  }
  return { running, queued };
}

/** Seconds of one slot that `share` (0 to 1) of this work takes, each job taking `jobSec`. */
function slotSec(w: Work, jobSec: number, share = 1): number {
  return share * (w.jobs * jobSec + w.analyses * ANALYSIS_START_SEC + w.mediaSec / ANALYSIS_SPEED);
}

/**
 * Seconds of one slot that the work ahead of a new job of `workspaceId` takes: every running task,
 * every task its workspace queued before it, and of each other workspace's queue the tasks of
 * the turns it gets first. The job is its workspace's (k + 1)-th claim when k of its tasks are
 * queued; a workspace ahead of it in the turns (an older last claim; on a tie, the smaller id, as
 * the claim orders them) gets k + 1 claims before it, one behind it k, each at most its queue.
 * Those tasks are taken as an average of that workspace's queue (the store counts queues, not
 * their order). Each job is taken to run `jobSec`, whichever workspace's (the workspace's own
 * recent mean: no other workspace's durations are read), each analysis ANALYSIS_START_SEC plus
 * its media's duration / ANALYSIS_SPEED. Running tasks count whole, as queued ones: they are on
 * average part-way through, and the slot they hold frees when they end.
 */
export function workAheadSec(queue: QueueSnapshot, workspaceId: string, lastClaim: number, jobSec: number): number {
  const own = queue.queued.get(workspaceId);
  const k = own ? tasksOf(own.work) : 0;
  const turn = own?.lastClaim ?? lastClaim;
  let sec = slotSec(queue.running, jobSec) + (own ? slotSec(own.work, jobSec) : 0);
  for (const [id, other] of queue.queued) {
    if (id === workspaceId) continue;
    const n = tasksOf(other.work);
    if (n === 0) continue;
    const first = other.lastClaim < turn || (other.lastClaim === turn && id < workspaceId);
    sec += slotSec(other.work, jobSec, Math.min(n, k + (first ? 1 : 0)) / n);
  }
  return sec;
}

/**
 * A receipt's `estimatedWaitSec`: the work ahead shared by the `concurrency` tasks a worker runs
 * at once (WORKER_CONCURRENCY), rounded to 0.1 s. The work divided by the slots, not whole rounds
 * of it: the running tasks are on average part-way through, so slots free up one after another
 * rather than all at once, and rounds would tell a job that finds a free slot to wait a whole
 * task's time. With nothing running or queued ahead it is 0 (a free slot starts the job at once),
 * however long the job itself will take.
 *
 * The slots are one process's WORKER_CONCURRENCY, that of the process answering the request: an
 * API process (ROLE=api) cannot tell how many worker processes are running, so with several
 * workers the figure counts one worker's slots and is that many times too long (docs/deploy.md).
 * A single process (ROLE=all) counts exactly its own.
 */
export function waitSec(aheadSec: number, concurrency: number): number {
  return Math.round((aheadSec / concurrency) * 10) / 10;
}

/** How often the figures behind `estimatedWaitSec` are read from the store again. */
export const ESTIMATE_REFRESH_MS = 1000;
/** Workspaces whose own figures are kept; the least recently read are forgotten beyond it. */
const MAX_WORKSPACES = 10_000;

export interface EstimateQueries {
  /** Every task of the queue, grouped by workspace, kind and whether a worker holds it `now`. */
  queue(now: number): QueueRow[] | Promise<QueueRow[]>;
  /** The workspace's last claim (queue_turns), 0 when it never had a task. */
  lastClaim(workspaceId: string): number | Promise<number>;
  /** Mean duration of the workspace's recently finished jobs, seconds; null when none finished yet. */
  meanRecentDurationSec(workspaceId: string): number | null | Promise<number | null>;
}

/** A workspace's own figures, each with when it was read: its last claim (its turn), its jobs' mean duration. */
interface Figures {
  turn: { at: number; value: number } | null;
  duration: { at: number; value: number | null } | null;
}
type FigureOf<K extends keyof Figures> = NonNullable<Figures[K]>['value'];

export class WaitEstimate {
  private readonly queries: EstimateQueries;
  private queueFigures: { at: number; queue: QueueSnapshot } | null = null;
  private readonly figures = new Map<string, Figures>();
  // Tens of creations find a figure stale at once: one read of it at a time (one O(queue) count).
  private readonly queueRead = new SingleFlight<'queue', QueueSnapshot>();
  private readonly turnRead = new SingleFlight<string, number>();
  private readonly durationRead = new SingleFlight<string, number | null>();

  constructor(queries: EstimateQueries) {
    this.queries = queries;
  }

  /** Seconds of one slot that the work ahead of a new job of the workspace takes (workAheadSec). */
  async workAheadSec(workspaceId: string): Promise<number> {
    const [queue, duration] = await Promise.all([this.queue(), this.recentDurationSec(workspaceId)]);
    const own = queue.queued.get(workspaceId);
    const lastClaim = own ? own.lastClaim : await this.lastClaim(workspaceId);
    return workAheadSec(queue, workspaceId, lastClaim, duration ?? DEFAULT_JOB_SEC);
  }

  private async queue(): Promise<QueueSnapshot> {
    const held = this.queueFigures;
    if (held && Date.now() - held.at < ESTIMATE_REFRESH_MS) return held.queue;
    return this.queueRead.run('queue', async () => {
      const at = Date.now();
      const queue = snapshotOf(await this.queries.queue(at));
      this.queueFigures = { at, queue };
      return queue;
    });
  }

  private of(workspaceId: string): Figures {
    let f = this.figures.get(workspaceId);
    if (f) {
      // Most recently used last, so that the first is the one to forget.
      this.figures.delete(workspaceId);
    } else {
      f = { turn: null, duration: null };
      if (this.figures.size >= MAX_WORKSPACES) this.figures.delete(this.figures.keys().next().value as string);
    }
    this.figures.set(workspaceId, f);
    return f;
  }

  private lastClaim(workspaceId: string): Promise<number> {
    return this.fresh(workspaceId, 'turn', this.turnRead, () => this.queries.lastClaim(workspaceId));
  }

  private recentDurationSec(workspaceId: string): Promise<number | null> {
    return this.fresh(workspaceId, 'duration', this.durationRead, () => this.queries.meanRecentDurationSec(workspaceId));
  }

  /** The workspace's figure `key`, read again through `read` (one read at a time) once older than ESTIMATE_REFRESH_MS. */
  private async fresh<K extends keyof Figures>(workspaceId: string, key: K, read: SingleFlight<string, FigureOf<K>>, query: () => FigureOf<K> | Promise<FigureOf<K>>): Promise<FigureOf<K>> {
    const f = this.of(workspaceId);
    const held = f[key];
    if (held && Date.now() - held.at < ESTIMATE_REFRESH_MS) return held.value;
    return read.run(workspaceId, async () => {
      const at = Date.now();
      const value = await query();
      f[key] = { at, value } as Figures[K];
      return value;
    });
  }

  /** A job of the workspace was created in this process: its task is queued. */
  created(workspaceId: string): void {
    const queued = this.queueFigures?.queue.queued;
    if (!queued) return;
    let entry = queued.get(workspaceId);
    if (!entry) queued.set(workspaceId, (entry = { lastClaim: this.figures.get(workspaceId)?.turn?.value ?? 0, work: noWork() }));
    entry.work.jobs++;
  }

  /** A job of the workspace ended in this process's store, from `queued` (its task waited) or `running`. */
  ended(workspaceId: string, from: 'queued' | 'running'): void {
    const queue = this.queueFigures?.queue;
    if (!queue) return;
    const work = from === 'running' ? queue.running : queue.queued.get(workspaceId)?.work;
    if (work && work.jobs > 0) work.jobs--;
  }
}
