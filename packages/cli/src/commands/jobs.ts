// match, report, jobs watch|get|list|cancel. Watching draws the stage and progress in place on a
// terminal, prints one line per change elsewhere, and one JSON line per event with --json.
import type { Job, MatchingPayload, Member, ReportPayload } from '@rapport/client';
import { int, list, need, str } from '../context.ts';
import type { Command, Context, Flags } from '../context.ts';
import { EXIT } from '../exit-codes.ts';
import { UsageError } from '../usage-error.ts';
import { parseMember } from '../members.ts';
import { progressBar, table } from '../output.ts';
import { renderResult } from './result.ts';

function describe(job: Job): string {
  return `${job.id}  ${job.status.padEnd(9)} ${String(job.stage).padEnd(20)} ${progressBar(job.progress, 20)}`;
}

/** Follows a job to its end, showing progress; throws JobFailedError when it fails. */
export async function watch(ctx: Context, jobId: string): Promise<Job> {
  let lastLine = '';
  return ctx.client.jobs.wait(jobId, {
    onUpdate: (job) => {
      if (ctx.out.json) return;
      const line = describe(job);
      if (ctx.out.tty) ctx.out.live(line);
      else if (line !== lastLine) ctx.out.info(line);
      lastLine = line;
    },
  }).finally(() => ctx.out.clearLive());
}

function onMiss(flags: Flags): 'fallback_dominant' | undefined {
  return flags['fallback-dominant'] ? 'fallback_dominant' : undefined;
}

function common(flags: Flags): { label?: string; webhook?: { url: string } } {
  const label = str(flags, 'label');
  const webhook = str(flags, 'webhook');
  return { ...(label ? { label } : {}), ...(webhook ? { webhook: { url: webhook } } : {}) };
}

async function finish(ctx: Context, jobId: string, kind: 'matching' | 'report'): Promise<void> {
  await watch(ctx, jobId);
  const payload: MatchingPayload | ReportPayload | null =
    kind === 'matching' ? await ctx.client.matching.byJob(jobId) : await ctx.client.reports.byJob(jobId);
  ctx.out.result(payload, payload ? renderResult(ctx.out, payload) : `job ${jobId} has no result`);
}

const memberOptions = {
  target: { type: 'string' },
  label: { type: 'string' },
  webhook: { type: 'string' },
  wait: { type: 'boolean' },
  'fallback-dominant': { type: 'boolean' },
  quiet: { type: 'boolean', short: 'q' },
} as const;

export const match: Command = {
  summary: 'start a matching job (target against a group); --wait follows it and prints the result',
  usage: ['match --target MEMBER --group MEMBER [--group MEMBER…] [--label TEXT] [--webhook URL] [--fallback-dominant] [--wait] [-q]'],
  options: { ...memberOptions, group: { type: 'string', multiple: true } },
  async run(ctx, args, flags) {
    if (args.length) throw new UsageError(`unexpected argument "${args[0]}"`);
    const targetText = str(flags, 'target');
    if (!targetText) throw new UsageError('--target is required');
    const groupTexts = list(flags, 'group');
    if (groupTexts.length === 0) throw new UsageError('at least one --group is required');
    const target = parseMember(targetText, '--target', onMiss(flags));
    const group: Member[] = groupTexts.map((g, i) => parseMember(g, `--group #${i + 1}`, onMiss(flags)));
    const receipt = await ctx.client.matching.create({ target, group, ...common(flags) });
    if (!flags.wait) return ctx.out.result(receipt, flags.quiet ? receipt.jobId : `${receipt.jobId} ${receipt.status}`);
    ctx.out.info(`job ${receipt.jobId} ${receipt.status}`);
    await finish(ctx, receipt.jobId, 'matching');
  },
};

export const report: Command = {
  summary: 'start a behavioral profile report of one target; --wait follows it and prints the result',
  usage: ['report --target MEMBER [--label TEXT] [--webhook URL] [--fallback-dominant] [--wait] [-q]'],
  options: memberOptions,
  async run(ctx, args, flags) {
    if (args.length) throw new UsageError(`unexpected argument "${args[0]}"`);
    const targetText = str(flags, 'target');
    if (!targetText) throw new UsageError('--target is required');
    const target = parseMember(targetText, '--target', onMiss(flags));
    const receipt = await ctx.client.reports.create({ target, ...common(flags) });
    if (!flags.wait) return ctx.out.result(receipt, flags.quiet ? receipt.jobId : `${receipt.jobId} ${receipt.status}`);
    ctx.out.info(`job ${receipt.jobId} ${receipt.status}`);
    await finish(ctx, receipt.jobId, 'report');
  },
};

export const jobsWatch: Command = {
  summary: 'follow a job live (stage and progress) until it ends; exit 5 if it fails',
  usage: ['jobs watch ID'],
  async run(ctx, args) {
    const id = need(args, 0, 'ID');
    if (!ctx.out.json) {
      const job = await watch(ctx, id);
      ctx.out.result(job, `${describe(job)}  result ${job.resultId ?? '-'}`);
      return;
    }
    for await (const ev of ctx.client.jobs.stream(id)) {
      ctx.out.jsonLine({ id: ev.id, event: ev.event, job: ev.job });
      if (ev.job.status === 'failed') return EXIT.jobFailed;
    }
  },
};

export const jobsGet: Command = {
  summary: 'show a job',
  usage: ['jobs get ID'],
  async run(ctx, args) {
    const job = await ctx.client.jobs.retrieve(need(args, 0, 'ID'));
    const err = job.error ? `\nerror: ${job.error.code}: ${job.error.message}` : '';
    ctx.out.result(job, `${describe(job)}  result ${job.resultId ?? '-'}${err}`);
  },
};

export const jobsList: Command = {
  summary: 'list jobs, newest first',
  usage: ['jobs list [--limit N] [--status queued|running|succeeded|failed]'],
  options: { limit: { type: 'string' }, status: { type: 'string' } },
  async run(ctx, _args, flags) {
    const status = str(flags, 'status') as Job['status'] | undefined;
    const page = await ctx.client.jobs.list({ limit: int(flags, 'limit', 1, 100) ?? 20, ...(status ? { status } : {}) });
    ctx.out.result(page.data, page.data.length ? table(page.data.map((j) => [j.id, j.type, j.status, String(j.stage), j.createdAt])) : 'no jobs');
  },
};

export const jobsCancel: Command = {
  summary: 'cancel a queued or running job',
  usage: ['jobs cancel ID'],
  async run(ctx, args) {
    const job = await ctx.client.jobs.cancel(need(args, 0, 'ID'));
    ctx.out.result(job, describe(job));
  },
};
