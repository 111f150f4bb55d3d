// result ID: a matching or report result by its id (mat_…, rep_…) or by its job's id (job_…),
// as Markdown for the terminal, as the payload with --json, or as a standalone HTML file with
// --html (`rapport result ID --html > report.html`).
import type { MatchingPayload, ReportPayload } from '@rapport/client';
import { need } from '../context.ts';
import type { Command, Context } from '../context.ts';
import { UsageError } from '../usage-error.ts';
import type { Output } from '../output.ts';
import { renderMarkdown } from '../render-markdown.ts';

export function renderResult(out: Output, payload: MatchingPayload | ReportPayload): string {
  if (payload.markdown) return renderMarkdown(payload.markdown, out.color);
  return `${payload.id}: no Markdown in this result`;
}

async function load(ctx: Context, id: string): Promise<MatchingPayload | ReportPayload | null> {
  if (id.startsWith('mat_')) return ctx.client.matching.retrieve(id);
  if (id.startsWith('rep_')) return ctx.client.reports.retrieve(id);
  if (id.startsWith('job_')) {
    const job = await ctx.client.jobs.retrieve(id);
    return job.type === 'report' ? ctx.client.reports.byJob(id) : ctx.client.matching.byJob(id);
  }
  throw new UsageError(`"${id}" is not a result or job id (mat_…, rep_… or job_…)`);
}

export const result: Command = {
  summary: 'print a result as Markdown (the payload with --json, one HTML file with --html); ID is mat_…, rep_… or job_…',
  usage: ['result ID [--html]'],
  options: { html: { type: 'boolean' } },
  async run(ctx, args, flags) {
    const id = need(args, 0, 'ID');
    const payload = await load(ctx, id);
    if (payload === null) {
      // by-job answers null while the job runs or when it failed: say which.
      const job = await ctx.client.jobs.retrieve(id);
      const why = job.error ? `failed: ${job.error.code}: ${job.error.message}` : `is ${job.status} (${job.stage})`;
      ctx.out.result(null, `job ${id} has no result: it ${why}`);
      return job.status === 'failed' ? 5 : 1;
    }
    if (flags.html && !ctx.out.json) {
      const html = payload.context === 'behavioral_profile' ? await ctx.client.reports.html(payload.id) : await ctx.client.matching.html(payload.id);
      ctx.out.result(null, html);
      return;
    }
    ctx.out.result(payload, renderResult(ctx.out, payload));
  },
};
