// Prometheus text exposition of the service's own state, read from the store when scraped
// (cheap aggregate queries), plus process metrics.
import type { StoreBackend } from '../store/backends.ts';
import type { WebhookStore } from '../webhooks/webhooks.store.ts';
import { webhookMetricLines } from '../webhooks/webhooks.metrics.ts';

export async function renderMetrics(stores: { backend: StoreBackend; webhooks: WebhookStore }): Promise<string> {
  const db = stores.backend;
  const lines: string[] = [];
  const gauge = (name: string, help: string, samples: [Record<string, string>, number][]) => {
    lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} gauge`);
    for (const [labels, value] of samples) {
      const l = Object.entries(labels).map(([k, v]) => `${k}="${v.replace(/["\\\n]/g, '_')}"`).join(',');
      lines.push(`${name}${l ? `{${l}}` : ''} ${value}`);
    }
  };
  gauge('rapport_jobs', 'Jobs by type and status.', (await db.aggregate<{ type: string; status: string; n: number }>('SELECT type, status, COUNT(*) AS n FROM jobs GROUP BY type, status')).map((r) => [{ type: r.type, status: r.status }, r.n]));
  gauge('rapport_tasks', 'Queued tasks by kind and state.', (await db.aggregate<{ kind: string; state: string; n: number }>('SELECT kind, state, COUNT(*) AS n FROM tasks GROUP BY kind, state')).map((r) => [{ kind: r.kind, state: r.state }, r.n]));
  gauge('rapport_media', 'Media by analysis status.', (await db.aggregate<{ s: string; n: number }>('SELECT analysis_status AS s, COUNT(*) AS n FROM media GROUP BY analysis_status')).map((r) => [{ analysis_status: r.s }, r.n]));
  gauge('rapport_webhook_deliveries', 'Webhook deliveries by status.', (await db.aggregate<{ s: string; n: number }>('SELECT status AS s, COUNT(*) AS n FROM webhook_deliveries GROUP BY status')).map((r) => [{ status: r.s }, r.n]));
  lines.push(...(await webhookMetricLines(stores.webhooks)));
  const mem = process.memoryUsage();
  gauge('process_resident_memory_bytes', 'Resident memory.', [[{}, mem.rss]]);
  gauge('process_heap_used_bytes', 'V8 heap used.', [[{}, mem.heapUsed]]);
  gauge('process_uptime_seconds', 'Seconds since the process started.', [[{}, Math.round(process.uptime())]]);
  return `${lines.join('\n')}\n`;
}
