// upload FILE…, files list|get|delete|reanalyze|diarization|metrics.
import { accessSync, constants, statSync, type Stats } from 'node:fs';
import { basename } from 'node:path';
import { APIError, formatBytes, formatSeconds as formatSec, speakerName } from '@rapport/client';
import type { DiarizationFormat, Media, ReanalyzeParams, SpeakerHints, UploadedMedia } from '@rapport/client';
import { measuresTable, mediaMetricsCsv } from '@rapport/analysis/render';
import { int, need, str } from '../context.ts';
import type { Command, Flags } from '../context.ts';
import { UsageError } from '../usage-error.ts';
import { progressBar, table } from '../output.ts';

/** A media as one table row: named by its label, else its filename, as the dashboard and the results name it (issue 40 item 7). */
function mediaRow(m: Media): string[] {
  return [m.id, m.kind, m.label ?? m.filename, formatBytes(m.sizeBytes), m.durationSec === null ? '-' : formatSec(m.durationSec), m.analysis?.status ?? '-'];
}

const HINT_OPTIONS = { speakers: { type: 'string' }, 'min-speakers': { type: 'string' }, 'max-speakers': { type: 'string' } } as const;

/**
 * --speakers N, or --min-speakers N and/or --max-speakers M. Whole numbers here; their range and
 * how they combine are the API's rules (a refusal names the field, exit code 2).
 */
function hintFlags(flags: Flags): SpeakerHints {
  const count = (name: string): number | undefined => {
    const v = str(flags, name);
    if (v === undefined) return undefined;
    if (!/^\d+$/.test(v)) throw new UsageError(`--${name} must be a whole number`);
    return Number(v);
  };
  const exact = count('speakers');
  const min = count('min-speakers');
  const max = count('max-speakers');
  return { ...(exact !== undefined ? { numSpeakers: exact } : {}), ...(min !== undefined ? { minSpeakers: min } : {}), ...(max !== undefined ? { maxSpeakers: max } : {}) };
}

export const upload: Command = {
  summary: 'upload recordings or transcripts (one media per file)',
  usage: ['upload FILE… [--label TEXT] [--media-id ID] [--speakers N | --min-speakers N --max-speakers M] [-q]'],
  options: { label: { type: 'string' }, 'media-id': { type: 'string' }, quiet: { type: 'boolean', short: 'q' }, ...HINT_OPTIONS },
  async run(ctx, args, flags) {
    if (args.length === 0) throw new UsageError('upload needs at least one FILE');
    const mediaId = str(flags, 'media-id');
    if (mediaId && args.length > 1) throw new UsageError('--media-id attaches one transcript: give one FILE');
    const hints = hintFlags(flags);
    // Every file checked before the first is sent: a typo in the last name refuses the command
    // with its path and reason, rather than a raw ENOENT after the others were uploaded.
    for (const file of args) checkLocalFile(file);
    const done: UploadedMedia[] = [];
    for (const file of args) {
      const name = basename(file);
      const media = await ctx.client.files.upload(file, {
        ...(str(flags, 'label') ? { label: str(flags, 'label') as string } : {}),
        ...(mediaId ? { mediaId } : {}),
        ...hints,
        onProgress: ({ loaded, total }) =>
          ctx.out.live(`${name} ${total ? progressBar(loaded / total) : ''} ${formatBytes(loaded)}${total ? ` of ${formatBytes(total)}` : ''}`),
      });
      ctx.out.clearLive();
      done.push(media);
      // The same bytes as media the workspace has (decisions §18): said, not an error (exit 0).
      if (media.duplicate && !flags.quiet) ctx.out.info(`${name} was already uploaded as ${media.id}: nothing stored, analysed or charged; --label and speaker hints not applied`);
      // -q: only the ids, one a line, for `MEDIA=$(rapport upload talk.wav -q)`.
      if (!ctx.out.json) ctx.out.line(flags.quiet ? media.id : table([mediaRow(media)]));
    }
    ctx.out.result(done);
  },
};

export const filesList: Command = {
  summary: 'list uploaded media, newest first',
  usage: ['files list [--limit N] [--all] [--outdated]'],
  options: { limit: { type: 'string' }, all: { type: 'boolean' }, outdated: { type: 'boolean' } },
  async run(ctx, _args, flags) {
    const limit = int(flags, 'limit', 1, 100) ?? 20;
    const outdated = flags.outdated ? { outdated: true } : {};
    const items: Media[] = [];
    if (flags.all) for await (const m of ctx.client.files.list({ limit: 100, ...outdated })) items.push(m);
    else items.push(...(await ctx.client.files.list({ limit, ...outdated })).data);
    ctx.out.result(items, items.length ? table(items.map(mediaRow)) : 'no media');
  },
};

export const filesGet: Command = {
  summary: 'show one media and its speakers',
  usage: ['files get ID'],
  async run(ctx, args) {
    const m = await ctx.client.files.retrieve(need(args, 0, 'ID'));
    const people = await Promise.all(m.analysis.speakers.map((sp) => (sp.entityId ? ctx.client.entities.retrieve(sp.entityId).catch(() => null) : null)));
    // Decisions §17: the person's label, else the transcript's name, else "Speaker N" from 1.
    const speakers = m.analysis.speakers.map((sp, i) => [
      `  ${speakerName(sp.index, people[i]?.label ?? sp.label)}`, sp.entityId ?? '-', formatSec(sp.speechSec), sp.enough ? '' : 'too little speech to judge',
    ]);
    const warnings = m.analysis.warnings.map((w) => `warning (${w.code}): ${w.reason}`);
    ctx.out.result(m, [table([mediaRow(m)]), ...(speakers.length ? [table(speakers)] : []), ...warnings].join('\n'));
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

export const filesReanalyze: Command = {
  summary: 'analyse media again with the current engine (--all: every media an older engine analysed)',
  usage: ['files reanalyze ID… | --all [--speakers N | --min-speakers N --max-speakers M | --clear-hints]'],
  options: { all: { type: 'boolean' }, 'clear-hints': { type: 'boolean' }, ...HINT_OPTIONS },
  async run(ctx, args, flags) {
    if (flags.all && args.length > 0) throw new UsageError('give media ids or --all, not both');
    if (!flags.all && args.length === 0) throw new UsageError('files reanalyze needs an ID, or --all');
    const given = hintFlags(flags);
    if (flags['clear-hints'] && Object.keys(given).length > 0) throw new UsageError('--clear-hints cannot be combined with speaker counts');
    // No hint flags: each media keeps its stored hints. --clear-hints: the engine decides alone.
    const hints: ReanalyzeParams = flags['clear-hints'] ? { numSpeakers: null } : given;
    const ids: string[] = [...args];
    // Collected first: each media asked for leaves the outdated list.
    if (flags.all) for await (const m of ctx.client.files.list({ limit: 100, outdated: true })) ids.push(m.id);
    const done: Media[] = [];
    const refused: { id: string; error: { status: number; code: string; message: string } }[] = [];
    for (const id of ids) {
      try {
        done.push(await ctx.client.files.reanalyze(id, hints));
      } catch (err) {
        // One media in the way (in use, being analysed) does not stop the others; anything that
        // is not the API's answer about this media (no key, unreachable, no credits) stops all.
        if (!(err instanceof APIError) || !['CONFLICT', 'NOT_FOUND'].includes(err.code) || ids.length === 1) throw err;
        refused.push({ id, error: { status: err.status, code: err.code, message: err.message } });
        ctx.out.info(`${id}: ${err.message}`);
      }
    }
    const text = done.length ? table(done.map(mediaRow)) : flags.all && ids.length === 0 ? 'nothing to do: no media was analysed by an older engine' : 'no media analysed again';
    ctx.out.result({ reanalyzing: done, refused }, text);
    return refused.length > 0 ? 1 : 0;
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
    const heads = m.speakers.map((s) => speakerName(s.index, s.label));
    // "-" is not measured; the API says why when it knows (a transcript on its own: no audio).
    const why = m.notMeasured ? `\nnot measured (${m.notMeasured.reason}): pitch, loudness and syllable rates` : '';
    ctx.out.result(m, `${table(measuresTable(heads, m.speakers.map((s) => s.metrics)))}${why}`);
  },
};

/** Refuses (exit 2) a FILE that is not a readable regular file, saying which and why. */
export function checkLocalFile(file: string): void {
  let st: Stats;
  try {
    st = statSync(file);
    if (st.isFile()) accessSync(file, constants.R_OK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' || code === 'EPERM' ? 'permission denied: it cannot be read' : code === 'ENOTDIR' ? 'a part of its path is not a folder' : `it cannot be read (${code ?? String(err)})`;
    throw new UsageError(`cannot upload ${file}: ${why}`);
  }
  if (!st.isFile()) throw new UsageError(`cannot upload ${file}: it is ${st.isDirectory() ? 'a folder' : 'not a regular file'}, give a file`);
}
