// Delivery metrics for /metrics (Prometheus text), read from the store so that every process
// of a deployment reports the same numbers: attempts by outcome (a counter: the attempt log is
// never deleted), and a summary of the time from a job's terminal state to its first attempt
// over the most recent deliveries. Deliveries by status are in health/metrics.ts.
import type { WebhookStore } from './webhooks.store.ts';

const QUANTILES = [0.5, 0.9, 0.99] as const;

/** The value at quantile q of ascending `sorted` (nearest rank). */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] as number;
}

export async function webhookMetricLines(store: WebhookStore): Promise<string[]> {
  const lines: string[] = [
    '# HELP rapport_webhook_attempts_total Webhook delivery attempts by outcome (succeeded, failed, refused, gone, in_flight, interrupted).',
    '# TYPE rapport_webhook_attempts_total counter',
  ];
  for (const { outcome, n } of await store.attemptCounts()) lines.push(`rapport_webhook_attempts_total{outcome="${outcome}"} ${n}`);

  const latencies = (await store.recentFirstAttemptLatencies()).sort((a, b) => a - b);
  lines.push(
    '# HELP rapport_webhook_first_attempt_latency_seconds Time from a job\'s terminal state to its first delivery attempt (last 1000 deliveries).',
    '# TYPE rapport_webhook_first_attempt_latency_seconds summary',
  );
  for (const q of QUANTILES) {
    const v = quantile(latencies, q);
    lines.push(`rapport_webhook_first_attempt_latency_seconds{quantile="${q}"} ${Number.isNaN(v) ? 'NaN' : v / 1000}`);
  }
  lines.push(
    `rapport_webhook_first_attempt_latency_seconds_sum ${latencies.reduce((s, v) => s + v, 0) / 1000}`,
    `rapport_webhook_first_attempt_latency_seconds_count ${latencies.length}`,
  );
  return lines;
}
