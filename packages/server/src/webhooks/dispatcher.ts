// The webhook dispatcher: drains the outbox (webhook_deliveries) written with each job's terminal
// state. It claims due deliveries with a lease, so two processes on one store never send the
// same attempt at once and a delivery left in flight by a crashed process is claimed again when
// the lease runs out; it sends through `deliverOnce` signed with the workspace's current secrets
// (a fresh `t` per attempt over the same body bytes), logs every attempt, and schedules the next
// one. Concurrency is bounded per destination (a slow or dead receiver only delays itself) and
// globally. It wakes at once when a job ends in this process, when a retry falls due, and polls
// for work written by other processes or left by a crash.
import { randomToken } from '../ids.ts';
import { deliverOnce, type AttemptOutcome, type DeliveryRequest } from './deliver.ts';
import { DestinationLimiter, nextAttemptDelayMs } from './schedule.ts';
import type { ClaimedDelivery, DeliveryStatus, DueCandidate as Candidate, RetrySchedule, WebhookStore } from './webhooks.store.ts';

export interface DispatcherOptions {
  /** Attempts in flight at once, all destinations together. */
  maxInFlight: number;
  /** Attempts in flight at once per destination (URL origin). */
  perDestination: number;
  /**
   * Attempts in flight at once per workspace: one workspace's dead receivers can hold at most
   * this many of the `maxInFlight` slots, the rest stay for the others (issue 41, finding 1).
   */
  perWorkspace: number;
  /**
   * How long a claim holds a delivery. Longer than the attempt timeout, so a live process never
   * loses a delivery it is still sending; after it, a crashed process's delivery is sent again.
   */
  leaseMs: number;
  /** Upper bound between two looks at the store (work from other processes, expired leases). */
  pollMs: number;
  /** Per attempt; decisions §8 says 10 s. */
  timeoutMs: number;
  /** How long `close()` waits for attempts in flight before handing them back. */
  closeGraceMs: number;
  /** The retry schedule; tests inject a fast one. */
  schedule: RetrySchedule;
}

export const DEFAULT_DISPATCHER_OPTIONS: DispatcherOptions = {
  maxInFlight: 64,
  perDestination: 8,
  perWorkspace: 32,
  leaseMs: 30_000,
  pollMs: 500,
  timeoutMs: 10_000,
  closeGraceMs: 2_000,
  schedule: (attemptsMade, retryAfterSec) => nextAttemptDelayMs(attemptsMade, retryAfterSec),
};

/** Due deliveries read per query. */
const CANDIDATE_BATCH = 256;


export interface DispatcherDeps {
  store: WebhookStore;
  /** The workspace's signing secrets, newest first. */
  secrets: (workspaceId: string) => Promise<string[]>;
  allowPrivate: boolean;
  requireHttps: boolean;
  log?: (msg: string, extra?: Record<string, unknown>) => void;
  /** Observes every finished attempt (metrics, tests). */
  onAttempt?: (claim: ClaimedDelivery, outcome: AttemptOutcome, status: DeliveryStatus | null) => void;
  /** Replaces the network call (tests); defaults to deliverOnce. */
  send?: (req: DeliveryRequest) => Promise<AttemptOutcome>;
}

export class WebhookDispatcher {
  readonly owner = `dispatcher-${process.pid}-${randomToken(8)}`;
  #opts: DispatcherOptions;
  readonly #deps: DispatcherDeps;
  #limiter: DestinationLimiter;
  #running = false;
  #closed = false;
  #pumping = false;
  #again = false;
  #wakeQueued = false;
  #refresh = true;
  /** Due deliveries read from the store but not claimed yet, oldest due first. */
  #candidates: Candidate[] = [];
  #timer: NodeJS.Timeout | null = null;
  readonly #inFlight = new Map<Promise<void>, ClaimedDelivery>();
  /** Attempts in flight per workspace (perWorkspace). */
  readonly #byWorkspace = new Map<string, number>();
  /** Claims handed back at close: their late outcomes are not recorded. */
  readonly #abandoned = new Set<ClaimedDelivery>();

  constructor(deps: DispatcherDeps, opts: Partial<DispatcherOptions> = {}) {
    this.#deps = deps;
    this.#opts = { ...DEFAULT_DISPATCHER_OPTIONS, ...opts };
    this.#limiter = new DestinationLimiter({ perDestination: this.#opts.perDestination });
  }

  get options(): Readonly<DispatcherOptions> {
    return this.#opts;
  }

  /** Attempts in flight now. */
  get inFlight(): number {
    return this.#inFlight.size;
  }

  /**
   * Changes options while running (tests and the crash fixture shorten the schedule and the
   * lease). A new per-destination limit applies to attempts started from now on.
   */
  configure(opts: Partial<DispatcherOptions>): void {
    this.#opts = { ...this.#opts, ...opts };
    if (opts.perDestination !== undefined) this.#limiter = new DestinationLimiter({ perDestination: opts.perDestination });
    this.wake();
  }

  start(): void {
    if (this.#running || this.#closed) return;
    this.#running = true;
    this.wake();
  }

  /**
   * Look for due deliveries now (a job just ended, a redelivery was asked): the next pass reads
   * the store afresh. Wakes within one turn of the event loop are served by one pass.
   */
  wake = (): void => {
    this.#refresh = true;
    this.#schedulePump();
  };

  #schedulePump(): void {
    if (!this.#running || this.#wakeQueued) return;
    this.#wakeQueued = true;
    setImmediate(() => {
      this.#wakeQueued = false;
      this.#pump().catch((err: unknown) => this.#deps.log?.('webhook dispatch failed', { err: String(err) }));
    });
  }

  async #pump(): Promise<void> {
    if (this.#pumping) {
      this.#again = true;
      return;
    }
    this.#pumping = true;
    try {
      do {
        this.#again = false;
        const refresh = this.#refresh;
        this.#refresh = false;
        await this.#fill(refresh);
      } while (this.#again && this.#running);
      await this.#arm();
    } catch (err) {
      this.#deps.log?.('webhook dispatch failed', { err: String(err) });
      this.#armAfter(this.#opts.pollMs);
    } finally {
      this.#pumping = false;
    }
  }

  /**
   * Claims and starts as many due attempts as the limits allow. Candidates are read in batches
   * and kept: when an attempt finishes, the next one comes from the batch (the claim re-checks
   * that it is still due and free), so a backlog costs one query per batch rather than one per
   * attempt. `refresh` (new work, or the timer) reads the store again.
   */
  async #fill(refresh: boolean): Promise<void> {
    const { store } = this.#deps;
    const now = Date.now();
    // Destinations (URL origins) and workspaces at their limit; left out of the next query, so
    // that a flood of deliveries to one slow receiver, or of one workspace, costs one candidate
    // and cannot hide the others' deliveries behind it (issue 41, finding 1: the set was keyed by
    // URL while the limit was by origin, so a distinct URL per job cost a candidate each).
    const saturated = new Set<string>();
    const full = new Set<string>();
    let queriedWith = -1; // saturated.size + full.size when the store was last read in this pass
    let read = refresh || this.#candidates.length === 0;
    for (let round = 0; round < 10 && this.#running; round++) {
      const free = this.#opts.maxInFlight - this.#inFlight.size;
      if (free <= 0) return;
      if (read) {
        if (queriedWith === saturated.size + full.size) return; // read already, nothing new to leave out
        this.#candidates = await store.dueCandidates(now, { destinations: [...saturated], workspaces: [...full] }, CANDIDATE_BATCH, this.#opts.perWorkspace);
        queriedWith = saturated.size + full.size;
        read = false;
        if (this.#candidates.length === 0) return;
      }
      // Workspace and destination slots first, then one transaction claims every delivery that got one.
      const picked = new Map<string, () => void>();
      const rest: Candidate[] = [];
      for (const candidate of this.#candidates) {
        if (picked.size < free && !saturated.has(candidate.destination) && !full.has(candidate.workspaceId)) {
          const ownRelease = this.#takeWorkspaceSlot(candidate.workspaceId);
          if (!ownRelease) {
            full.add(candidate.workspaceId);
          } else {
            const release = this.#limiter.tryAcquire(candidate.url);
            if (release) {
              picked.set(candidate.id, () => {
                release();
                ownRelease();
              });
              continue;
            }
            ownRelease();
            saturated.add(candidate.destination);
          }
        }
        rest.push(candidate);
      }
      this.#candidates = rest;
      let claims: ClaimedDelivery[] = [];
      try {
        claims = await store.claimMany([...picked.keys()], this.owner, now, this.#opts.leaseMs);
      } finally {
        const claimed = new Set(claims.map((c) => c.id));
        // Not claimed: another process took it, or it is no longer due.
        for (const [id, release] of picked) if (!claimed.has(id)) release();
      }
      for (const claim of claims) this.#launch(claim, picked.get(claim.id) as () => void);
      if (this.#inFlight.size >= this.#opts.maxInFlight) return;
      if (claims.length < picked.size) continue; // stale rows: the rest of the batch may do
      // Slots are free but the batch has nothing for them. After an attempt finished, wait for
      // new work or the timer rather than scan past a backlog of saturated destinations on
      // every attempt; a fresh pass reads again, leaving those destinations out.
      if (this.#candidates.length === 0 || refresh) read = true;
      else return;
    }
  }

  /** A slot of the workspace's perWorkspace, and its release; null when they are all taken. */
  #takeWorkspaceSlot(workspaceId: string): (() => void) | null {
    const n = this.#byWorkspace.get(workspaceId) ?? 0;
    if (n >= this.#opts.perWorkspace) return null;
    this.#byWorkspace.set(workspaceId, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.#byWorkspace.get(workspaceId) ?? 1) - 1;
      if (left <= 0) this.#byWorkspace.delete(workspaceId);
      else this.#byWorkspace.set(workspaceId, left);
    };
  }

  #launch(claim: ClaimedDelivery, release: () => void): void {
    const p = this.#attempt(claim).finally(() => {
      release();
      this.#inFlight.delete(p);
      // A slot came free: the next candidate of the batch may start (no fresh read needed).
      this.#schedulePump();
    });
    this.#inFlight.set(p, claim);
  }

  async #attempt(claim: ClaimedDelivery): Promise<void> {
    const { store } = this.#deps;
    let outcome: AttemptOutcome;
    try {
      const secrets = await this.#deps.secrets(claim.workspaceId);
      outcome = await (this.#deps.send ?? deliverOnce)({
        url: claim.url,
        body: claim.body,
        headers: claim.headers,
        secrets,
        eventId: claim.eventId,
        attempt: claim.attempt,
        allowPrivate: this.#deps.allowPrivate,
        requireHttps: this.#deps.requireHttps,
        timeoutMs: this.#opts.timeoutMs,
      });
    } catch (err) {
      // deliverOnce does not throw; this is the secrets lookup (a deleted workspace, a store error).
      outcome = { ok: false, statusCode: null, durationMs: 0, error: `not sent: ${(err as Error).message}`, refused: false, retryAfterSec: null, gone: false };
    }
    if (this.#abandoned.has(claim)) return;
    let status: DeliveryStatus | null = null;
    try {
      status = await store.record(claim, this.owner, outcome, this.#opts.schedule, Date.now());
    } catch (err) {
      // The lease runs out and the delivery is sent again: at least once, never lost.
      this.#deps.log?.('webhook attempt not recorded', { delivery: claim.id, err: String(err) });
    }
    this.#deps.onAttempt?.(claim, outcome, status);
  }

  /** Sleeps until the next retry falls due, or at most pollMs. */
  async #arm(): Promise<void> {
    if (!this.#running) return;
    const now = Date.now();
    const due = await this.#deps.store.nextDueAt(now);
    // Already due yet left unclaimed after a full pass: its destination (or the global cap) is
    // at its limit, and finishing attempts wake us; poll at the normal pace meanwhile rather than
    // re-scan a saturated backlog in a tight loop.
    const wait = due === null || due <= now ? this.#opts.pollMs : Math.min(this.#opts.pollMs, due - now);
    this.#armAfter(wait);
  }

  #armAfter(ms: number): void {
    if (this.#timer) clearTimeout(this.#timer);
    if (!this.#running) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.wake(); // retries fell due, or other processes wrote work: read the store afresh
    }, ms);
    this.#timer.unref();
  }

  /**
   * Stops claiming, waits up to closeGraceMs for attempts in flight, then hands the rest back to
   * the store (due again at once, for the next process). Safe to call twice.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#running = false;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    if (this.#inFlight.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...this.#inFlight.keys()]),
        new Promise<void>((resolve) => (timer = setTimeout(resolve, this.#opts.closeGraceMs))),
      ]);
      clearTimeout(timer);
    }
    for (const claim of this.#inFlight.values()) {
      this.#abandoned.add(claim);
      await this.#deps.store.release(claim, this.owner).catch((err: unknown) => this.#deps.log?.('webhook release failed', { err: String(err) }));
    }
  }
}
