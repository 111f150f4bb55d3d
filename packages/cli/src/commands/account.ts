// credits, credits transactions, webhooks deliveries|delivery|redeliver, feedback.
import type { WebhookDelivery } from '@rapport/client';
import { int, need, str } from '../context.ts';
import type { Command } from '../context.ts';
import { UsageError } from '../usage-error.ts';
import { table } from '../output.ts';

export const credits: Command = {
  summary: 'show the credit balance (credits grant is an admin command)',
  usage: ['credits'],
  async run(ctx, args) {
    if (args.length) throw new UsageError(`unknown credits command "${args[0]}" (credits, credits transactions, credits grant)`);
    const b = await ctx.client.credits.balance();
    ctx.out.result(b, `balance ${b.balance}  reserved ${b.reserved}  available ${b.available}`);
  },
};

export const creditsTransactions: Command = {
  summary: 'list credit transactions, newest first',
  usage: ['credits transactions [--limit N]'],
  options: { limit: { type: 'string' } },
  async run(ctx, _args, flags) {
    const page = await ctx.client.credits.transactions({ limit: int(flags, 'limit', 1, 100) ?? 20 });
    const rows = page.data.map((t) => [t.id, t.kind, String(t.amount), `→ ${t.balanceAfter}`, t.jobId ?? t.mediaId ?? '', t.createdAt]);
    ctx.out.result(page.data, rows.length ? table(rows) : 'no transactions');
  },
};

function deliveryRow(d: WebhookDelivery): string[] {
  return [d.id, String(d.status), String(d.eventType ?? ''), String(d.jobId ?? ''), String(d.url ?? '')];
}

export const webhooksDeliveries: Command = {
  summary: 'list webhook deliveries, newest first',
  usage: ['webhooks deliveries [--job ID] [--status pending|succeeded|failed] [--limit N]'],
  options: { job: { type: 'string' }, status: { type: 'string' }, limit: { type: 'string' } },
  async run(ctx, _args, flags) {
    const status = str(flags, 'status') as WebhookDelivery['status'] | undefined;
    const job = str(flags, 'job');
    const page = await ctx.client.webhooks.deliveries.list({
      limit: int(flags, 'limit', 1, 100) ?? 20, ...(status ? { status } : {}), ...(job ? { jobId: job } : {}),
    });
    ctx.out.result(page.data, page.data.length ? table(page.data.map(deliveryRow)) : 'no deliveries');
  },
};

export const webhooksDelivery: Command = {
  summary: 'show one delivery with every attempt',
  usage: ['webhooks delivery ID'],
  async run(ctx, args) {
    const d = await ctx.client.webhooks.deliveries.retrieve(need(args, 0, 'ID'));
    const attempts = (d.attempts ?? []).map((a) => [`  ${a.at}`, String(a.statusCode ?? '-'), `${a.durationMs ?? '-'} ms`, a.error ?? '']);
    ctx.out.result(d, [table([deliveryRow(d)]), ...(attempts.length ? [table(attempts)] : [])].join('\n'));
  },
};

export const webhooksRedeliver: Command = {
  summary: 'send a delivery again now',
  usage: ['webhooks redeliver ID'],
  async run(ctx, args) {
    const id = need(args, 0, 'ID');
    const d = await ctx.client.webhooks.deliveries.redeliver(id);
    ctx.out.result(d, `redelivery of ${id} queued`);
  },
};

export const feedback: Command = {
  summary: 'rate a result from 1 to 5',
  usage: ['feedback RESULT_ID RATING [--comment TEXT]'],
  options: { comment: { type: 'string' } },
  async run(ctx, args, flags) {
    const resultId = need(args, 0, 'RESULT_ID');
    const rating = Number(need(args, 1, 'RATING'));
    if (![1, 2, 3, 4, 5].includes(rating)) throw new UsageError('RATING must be 1, 2, 3, 4 or 5');
    const comment = str(flags, 'comment');
    const fb = await ctx.client.feedback.create({ resultId, rating: rating as 1 | 2 | 3 | 4 | 5, ...(comment ? { comment } : {}) });
    ctx.out.result(fb, `thanks: ${fb.id}`);
  },
};
