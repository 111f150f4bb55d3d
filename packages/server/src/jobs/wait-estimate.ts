// The two figures behind a receipt's `estimatedWaitSec`: jobs waiting or running, and the mean
// duration of recent jobs. They are read on every job creation; counted exactly on every call
// they cost O(queue) and O(jobs) (46 % of a creation's time with 20,000 jobs queued, `npm run
// bench`), so they are re-read from the store at most once a second and the count is kept
// current in between by this process's own creations and completions. Other processes' changes
// show within a second: an estimate may be that stale. The same on both backends; each gives
// its own two queries.
import { SingleFlight } from '../single-flight.ts';

/** How often the figures behind `estimatedWaitSec` are read from the store again. */
export const ESTIMATE_REFRESH_MS = 1000;

export interface EstimateQueries {
  /** Jobs waiting or running in the whole store. */
  countActive(): number | Promise<number>;
  /** Mean duration of recently finished jobs, seconds; null when none finished yet. */
  meanRecentDurationSec(): number | null | Promise<number | null>;
}

export class WaitEstimate {
  private active: { at: number; n: number } | null = null;
  private duration: { at: number; sec: number | null } | null = null;
  private readonly queries: EstimateQueries;
  // Tens of creations find a figure stale at once: one read of it at a time (one O(queue) count).
  private readonly activeRead = new SingleFlight<null, number>();
  private readonly durationRead = new SingleFlight<null, number | null>();

  constructor(queries: EstimateQueries) {
    this.queries = queries;
  }

  async activeCount(): Promise<number> {
    if (this.active && Date.now() - this.active.at < ESTIMATE_REFRESH_MS) return this.active.n;
    return this.activeRead.run(null, async () => {
      const at = Date.now();
      const n = await this.queries.countActive();
      this.active = { at, n };
      return n;
    });
  }

  async recentDurationSec(): Promise<number | null> {
    if (this.duration && Date.now() - this.duration.at < ESTIMATE_REFRESH_MS) return this.duration.sec;
    return this.durationRead.run(null, async () => {
      const at = Date.now();
      const sec = await this.queries.meanRecentDurationSec();
      this.duration = { at, sec };
      return sec;
    });
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
