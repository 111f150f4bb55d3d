// The two figures behind a receipt's `estimatedWaitSec`: jobs waiting or running, and the mean
// duration of recent jobs. They are read on every job creation; counted exactly on every call
// they cost O(queue) and O(jobs) (46 % of a creation's time with 20,000 jobs queued, `npm run
// bench`), so they are re-read from the store at most once a second and the count is kept
// current in between by this process's own creations and completions. Other processes' changes
// show within a second: an estimate may be that stale. The same on both backends; each gives
// its own two queries.
/** How often the figures behind `estimatedWaitSec` are read from the store again. */
export const ESTIMATE_REFRESH_MS = 1000;

export interface EstimateQueries {
  /** Jobs waiting or running in the whole store. */
  countActive(): number | Promise<number>;
  /** Mean duration of recently finished jobs, seconds; null when none finished yet. */
  meanRecentDurationSec(): number | null | Promise<number | null>;
}

/**
 * `read` at most once at a time: a call while it runs gets the running read's answer. Under load
 * tens of creations find a figure stale at once; each starting its own read was tens of O(queue)
 * counts on the server instead of one.
 */
function oneAtATime<T>(read: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | null = null;
  return () => {
    if (running) return running;
    const p = read();
    running = p;
    const done = () => {
      if (running === p) running = null;
    };
    p.then(done, done);
    return p;
  };
}

export class WaitEstimate {
  private active: { at: number; n: number } | null = null;
  private duration: { at: number; sec: number | null } | null = null;
  private readonly readActive: () => Promise<number>;
  private readonly readDuration: () => Promise<number | null>;

  constructor(queries: EstimateQueries) {
    this.readActive = oneAtATime(async () => {
      const at = Date.now();
      const n = await queries.countActive();
      this.active = { at, n };
      return n;
    });
    this.readDuration = oneAtATime(async () => {
      const at = Date.now();
      const sec = await queries.meanRecentDurationSec();
      this.duration = { at, sec };
      return sec;
    });
  }

  async activeCount(): Promise<number> {
    if (this.active && Date.now() - this.active.at < ESTIMATE_REFRESH_MS) return this.active.n;
    return this.readActive();
  }

  async recentDurationSec(): Promise<number | null> {
    if (this.duration && Date.now() - this.duration.at < ESTIMATE_REFRESH_MS) return this.duration.sec;
    return this.readDuration();
  }

  /** A job was created in this process. */
  created(): void {
    if (this.active) this.active.n++;
  }

  /** A job of this process's store ended. */
  ended(): void {
    if (this.active && this.active.n > 0) this.active.n--;
  }
}
