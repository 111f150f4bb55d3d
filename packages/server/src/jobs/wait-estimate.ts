// The two figures behind a receipt's `estimatedWaitSec`, per workspace: the workspace's jobs
// waiting or running, and the mean duration of its recent jobs. Claims take turns between
// workspaces (docs/architecture.md), so a job waits for its own workspace's queue, not the whole
// store's; and a figure of the whole store told a tenant how busy every other one was (issue 32,
// finding 11). They are read on every job creation; counted exactly on every call they cost
// O(queue) (46 % of a creation's time with 20,000 jobs queued, `npm run bench`), so each
// workspace's figures are re-read from the store at most once a second and its count is kept
// current in between by this process's own creations and completions. Other processes' changes
// show within a second: an estimate may be that stale. The same on both backends; each gives its
// own two queries.
import { SingleFlight } from '../single-flight.ts';

/** Without history, a job is taken to run about 5 s (a short media analysis on one core). */
export const DEFAULT_JOB_SEC = 5;

/**
 * A receipt's `estimatedWaitSec`: the `ahead` jobs of the workspace queued or running, each taking
 * `meanSec`, shared by the `concurrency` tasks a worker runs at once (WORKER_CONCURRENCY), rounded
 * to 0.1 s. The work ahead divided by the slots (`ahead × meanSec / concurrency`), not whole
 * rounds of it (`ceil(ahead / concurrency) × meanSec`): the running jobs are on average part-way
 * through, so slots free up one after another rather than all at once, and rounds would tell a job
 * that finds a free slot to wait a whole job's time. When the workspace has the slots to itself
 * it is longer than the real wait by less than one mean duration (a free slot starts the job at
 * once); when other workspaces' jobs take their turns at the same slots the real wait is longer
 * (claims take turns between workspaces; their queues are not counted, issue 32).
 *
 * The slots are one process's WORKER_CONCURRENCY, that of the process answering the request: an
 * API process (ROLE=api) cannot tell how many worker processes are running, so with several
 * workers the figure counts one worker's slots and is that many times too long (docs/deploy.md).
 * A single process (ROLE=all) counts exactly its own.
 */
export function waitSec(ahead: number, meanSec: number, concurrency: number): number {
  return Math.round(((ahead * meanSec) / concurrency) * 10) / 10;
}

/** How often the figures behind `estimatedWaitSec` are read from the store again. */
export const ESTIMATE_REFRESH_MS = 1000;
/** Workspaces whose figures are kept; the least recently read are forgotten beyond it. */
const MAX_WORKSPACES = 10_000;

export interface EstimateQueries {
  /** The workspace's jobs waiting or running. */
  countActive(workspaceId: string): number | Promise<number>;
  /** Mean duration of the workspace's recently finished jobs, seconds; null when none finished yet. */
  meanRecentDurationSec(workspaceId: string): number | null | Promise<number | null>;
}

interface Figures {
  active: { at: number; n: number } | null;
  duration: { at: number; sec: number | null } | null;
}

export class WaitEstimate {
  private readonly figures = new Map<string, Figures>();
  private readonly queries: EstimateQueries;
  // Tens of creations find a figure stale at once: one read of it at a time (one O(queue) count).
  private readonly activeRead = new SingleFlight<string, number>();
  private readonly durationRead = new SingleFlight<string, number | null>();

  constructor(queries: EstimateQueries) {
    this.queries = queries;
  }

  private of(workspaceId: string): Figures {
    let f = this.figures.get(workspaceId);
    if (f) {
      // Most recently used last, so that the first is the one to forget.
      this.figures.delete(workspaceId);
    } else {
      f = { active: null, duration: null };
      if (this.figures.size >= MAX_WORKSPACES) this.figures.delete(this.figures.keys().next().value as string);
    }
    this.figures.set(workspaceId, f);
    return f;
  }

  async activeCount(workspaceId: string): Promise<number> {
    const f = this.of(workspaceId);
    if (f.active && Date.now() - f.active.at < ESTIMATE_REFRESH_MS) return f.active.n;
    return this.activeRead.run(workspaceId, async () => {
      const at = Date.now();
      const n = await this.queries.countActive(workspaceId);
      f.active = { at, n };
      return n;
    });
  }

  async recentDurationSec(workspaceId: string): Promise<number | null> {
    const f = this.of(workspaceId);
    if (f.duration && Date.now() - f.duration.at < ESTIMATE_REFRESH_MS) return f.duration.sec;
    return this.durationRead.run(workspaceId, async () => {
      const at = Date.now();
      const sec = await this.queries.meanRecentDurationSec(workspaceId);
      f.duration = { at, sec };
      return sec;
    });
  }

  /** A job of the workspace was created in this process. */
  created(workspaceId: string): void {
    const active = this.figures.get(workspaceId)?.active;
    if (active) active.n++;
  }

  /** A job of the workspace ended in this process's store. */
  ended(workspaceId: string): void {
    const active = this.figures.get(workspaceId)?.active;
    if (active && active.n > 0) active.n--;
  }
}
