// Prometheus text of this process's own counters (decisions §12): every figure is a counter or
// gauge kept in memory and raised where the thing happens (a job event committed, a webhook
// attempt finished, an HTTP answer sent), so a scrape reads no table. Before issue 32 (finding 2)
// each scrape ran four full-table counts on the event loop (250 ms each at 400k jobs) and
// showed every workspace's volume to anyone; the route now needs METRICS_TOKEN (health.routes.ts).
// Counters are per process, as Prometheus expects: scrape each process and sum.
import type { AttemptOutcome } from '../webhooks/deliver.ts';
import { resultOf, type DeliveryStatus } from '../webhooks/webhooks.store.ts';

const QUANTILES = [0.5, 0.9, 0.99] as const;
/** First-attempt latencies kept for the summary: the most recent ones. */
const LATENCY_WINDOW = 1000;

type Labels = Record<string, string>;

/** The value at quantile q of ascending `sorted` (nearest rank). */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] as number;
}

/** One counter family: a value per label set. */
class Family {
  readonly values = new Map<string, { labels: Labels; n: number }>();
  add(labels: Labels, by = 1): void {
    const key = JSON.stringify(labels);
    const v = this.values.get(key);
    if (v) v.n += by;
    else this.values.set(key, { labels, n: by });
  }
}

export class ServiceMetrics {
  readonly #jobEvents = new Family();
  readonly #httpResponses = new Family();
  readonly #attempts = new Family();
  readonly #deliveriesEnded = new Family();
  readonly #latenciesMs: number[] = [];
  #latencyNext = 0;
  #latencySum = 0;
  #latencyCount = 0;

  /** A job event committed by this process (`job.updated`, `job.succeeded`, `job.failed`). */
  jobEvent(event: string): void {
    this.#jobEvents.add({ event });
  }

  /** An HTTP answer sent by this process. */
  httpResponse(statusCode: number): void {
    this.#httpResponses.add({ code: `${Math.floor(statusCode / 100)}xx` });
  }

  /** A webhook attempt that this process's dispatcher finished, and the delivery's state after it. */
  webhookAttempt(firstAttemptLatencyMs: number | null, outcome: AttemptOutcome, status: DeliveryStatus | null): void {
    this.#attempts.add({ outcome: resultOf(outcome) });
    if (status === 'succeeded' || status === 'failed') this.#deliveriesEnded.add({ status });
    if (firstAttemptLatencyMs !== null) {
      const ms = Math.max(0, firstAttemptLatencyMs);
      if (this.#latenciesMs.length < LATENCY_WINDOW) this.#latenciesMs.push(ms);
      else this.#latenciesMs[this.#latencyNext] = ms;
      this.#latencyNext = (this.#latencyNext + 1) % LATENCY_WINDOW;
      this.#latencySum += ms;
      this.#latencyCount++;
    }
  }

  render(): string {
    const lines: string[] = [];
    const family = (name: string, type: 'counter' | 'gauge', help: string, samples: Iterable<{ labels: Labels; n: number }>) => {
      lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
      for (const { labels, n } of samples) {
        const l = Object.entries(labels).map(([k, v]) => `${k}="${v.replace(/["\\\n]/g, '_')}"`).join(',');
        lines.push(`${name}${l ? `{${l}}` : ''} ${n}`);
      }
    };
    family('rapport_job_events_total', 'counter', 'Job events committed by this process, by event.', this.#jobEvents.values.values());
    family('rapport_http_responses_total', 'counter', 'HTTP answers sent by this process, by status class.', this.#httpResponses.values.values());
    family('rapport_webhook_attempts_total', 'counter', 'Webhook delivery attempts finished by this process, by outcome (succeeded, failed, refused, gone).', this.#attempts.values.values());
    family('rapport_webhook_deliveries_ended_total', 'counter', 'Webhook deliveries that this process ended, by status (succeeded, failed).', this.#deliveriesEnded.values.values());
    const sorted = [...this.#latenciesMs].sort((a, b) => a - b);
    lines.push(
      `# HELP rapport_webhook_first_attempt_latency_seconds Time from a job's terminal state to its first delivery attempt (quantiles over this process's last ${LATENCY_WINDOW}).`,
      '# TYPE rapport_webhook_first_attempt_latency_seconds summary',
    );
    for (const q of QUANTILES) {
      const v = quantile(sorted, q);
      lines.push(`rapport_webhook_first_attempt_latency_seconds{quantile="${q}"} ${Number.isNaN(v) ? 'NaN' : v / 1000}`);
    }
    lines.push(`rapport_webhook_first_attempt_latency_seconds_sum ${this.#latencySum / 1000}`, `rapport_webhook_first_attempt_latency_seconds_count ${this.#latencyCount}`);
    const mem = process.memoryUsage();
    family('process_resident_memory_bytes', 'gauge', 'Resident memory.', [{ labels: {}, n: mem.rss }]);
    family('process_heap_used_bytes', 'gauge', 'V8 heap used.', [{ labels: {}, n: mem.heapUsed }]);
    family('process_uptime_seconds', 'gauge', 'Seconds since the process started.', [{ labels: {}, n: Math.round(process.uptime()) }]);
    return `${lines.join('\n')}\n`;
  }
}
