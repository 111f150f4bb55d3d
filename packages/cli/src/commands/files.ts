// upload FILE…, files list|get|delete|diarization|metrics.
import { basename } from 'node:path';
import type { DiarizationFormat, Media } from '@rapport/client';
import { measuresTable, mediaMetricsCsv } from '../metrics-csv.ts';
import { int, need, str } from '../context.ts';
import type { Command } from '../context.ts';
import { UsageError } from '../usage-error.ts';
import { formatBytes, progressBar, table } from '../output.ts';

function mediaRow(m: Media): string[] {
  return [m.id, m.kind, m.filename, formatBytes(m.sizeBytes), m.durationSec === null ? '-' : `${m.durationSec.toFixed(1)} s`, m.analysis?.status ?? '-'];
}

export const upload: Command = {
  summary: 'upload recordings or transcripts (one media per file)',
  usage: ['upload FILE… [--label TEXT] [--media-id ID] [-q]'],
  options: { label: { type: 'string' }, 'media-id': { type: 'string' }, quiet: { type: 'boolean', short: 'q' } },
  async run(ctx, args, flags) {
    if (args.length === 0) throw new UsageError('upload needs at least one FILE');
    const mediaId = str(flags, 'media-id');
    if (mediaId && args.length > 1) throw new UsageError('--media-id attaches one transcript: give one FILE');
    const done: Media[] = [];
    for (const file of args) {
      const name = basename(file);
      const media = await ctx.client.files.upload(file, {
        ...(str(flags, 'label') ? { label: str(flags, 'label') as string } : {}),
        ...(mediaId ? { mediaId } : {}),
        onProgress: ({ loaded, total }) =>
          ctx.out.live(`${name} ${total ? progressBar(loaded / total) : ''} ${formatBytes(loaded)}${total ? ` of ${formatBytes(total)}` : ''}`),
      });
      ctx.out.clearLive();
      done.push(media);
      // -q: only the ids, one a line, for `MEDIA=$(rapport upload talk.wav -q)`.
      if (!ctx.out.json) ctx.out.line(flags.quiet ? media.id : table([mediaRow(media)]));
    }
    ctx.out.result(done);
  },
};

export const filesList: Command = {
  summary: 'list uploaded media, newest first',
  usage: ['files list [--limit N] [--all]'],
  options: { limit: { type: 'string' }, all: { type: 'boolean' } },
  async run(ctx, _args, flags) {
    const limit = int(flags, 'limit', 1, 100) ?? 20;
    const items: Media[] = [];
    if (flags.all) for await (const m of ctx.client.files.list({ limit: 100 })) items.push(m);
    else items.push(...(await ctx.client.files.list({ limit })).data);
    ctx.out.result(items, items.length ? table(items.map(mediaRow)) : 'no media');
  },
};

export const filesGet: Command = {
  summary: 'show one media and its speakers',
  usage: ['files get ID'],
  async run(ctx, args) {
    const m = await ctx.client.files.retrieve(need(args, 0, 'ID'));
    const speakers = (m.analysis?.speakers ?? []).map((s) => [`  speaker ${s.index}`, s.entityId ?? '-', s.label ?? '', `${s.speechSec.toFixed(1)} s`]);
    ctx.out.result(m, [table([mediaRow(m)]), ...(speakers.length ? [table(speakers)] : [])].join('\n'));
  },
};

export const filesDelete: Command = {
  summary: 'delete a media and what was derived from it',
  usage: ['files delete ID'],
  async run(ctx, args) {
    const id = need(args, 0, 'ID');
    await ctx.client.files.delete(id);
    ctx.out.result({ id, deleted: true }, `deleted ${id}`);
  },
};

const FORMATS: readonly DiarizationFormat[] = ['json', 'rttm', 'vtt', 'srt'];

export const filesDiarization: Command = {
  summary: 'who speaks when, as JSON or as an RTTM, WebVTT or SRT file (to save: > talk.vtt)',
  usage: ['files diarization ID [--format json|rttm|vtt|srt]'],
  options: { format: { type: 'string' } },
  async run(ctx, args, flags) {
    const id = need(args, 0, 'ID');
    const format = (str(flags, 'format') ?? 'json') as DiarizationFormat;
    if (!FORMATS.includes(format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')}`);
    if (format === 'json' || ctx.out.json) {
      const d = await ctx.client.files.diarization(id);
      ctx.out.result(d, JSON.stringify(d, null, 2));
      return;
    }
    ctx.out.result(null, await ctx.client.files.diarizationFile(id, format));
  },
};

export const filesMetrics: Command = {
  summary: 'each speaker\'s measurements (a table, or CSV with --csv: units in the header)',
  usage: ['files metrics ID [--csv]'],
  options: { csv: { type: 'boolean' } },
  async run(ctx, args, flags) {
    const m = await ctx.client.files.metrics(need(args, 0, 'ID'));
    if (flags.csv && !ctx.out.json) {
      ctx.out.result(null, mediaMetricsCsv(m));
      return;
    }
    const heads = m.speakers.map((s) => `speaker ${s.index}${s.label ? ` (${s.label})` : ''}`);
    ctx.out.result(m, table(measuresTable(heads, m.speakers.map((s) => s.metrics))));
  },
};
