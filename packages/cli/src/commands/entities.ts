// entities list|get|label|tag|untag|merge|metrics.
import { formatSeconds as formatSec, recordingName, speakerName, type Entity } from '@rapport/client';
import { int, need, str } from '../context.ts';
import type { Command } from '../context.ts';
import { UsageError } from '../usage-error.ts';
import { table } from '../output.ts';
import { entityMetricsCsv, measuresTable } from '@rapport/analysis/render';

function row(e: Entity): string[] {
  return [e.id, e.name, formatSec(e.speechSec), `${e.appearances.length} media`, e.tags.join(',')];
}

function show(e: Entity): string {
  return table([row(e)]);
}

export const entitiesList: Command = {
  summary: 'list the people tracked across media',
  usage: ['entities list [--tag TAG] [--q TEXT] [--limit N] [--all] [--include-empty]'],
  options: { tag: { type: 'string' }, q: { type: 'string' }, limit: { type: 'string' }, all: { type: 'boolean' }, 'include-empty': { type: 'boolean' } },
  async run(ctx, _args, flags) {
    const filter = {
      ...(str(flags, 'tag') ? { tag: str(flags, 'tag') as string } : {}),
      ...(str(flags, 'q') ? { q: str(flags, 'q') as string } : {}),
      ...(flags['include-empty'] ? { include: 'empty' as const } : {}),
    };
    const items: Entity[] = [];
    if (flags.all) for await (const e of ctx.client.entities.list({ ...filter, limit: 100 })) items.push(e);
    else items.push(...(await ctx.client.entities.list({ ...filter, limit: int(flags, 'limit', 1, 100) ?? 20 })).data);
    ctx.out.result(items, items.length ? table(items.map(row)) : 'no entities');
  },
};

export const entitiesGet: Command = {
  summary: 'show one entity and where it appears',
  usage: ['entities get ID'],
  async run(ctx, args) {
    const e = await ctx.client.entities.retrieve(need(args, 0, 'ID'));
    // Each appearance with its recording's name, duration and date beside the id (issue 40 item 7); a media that cannot be read keeps its id alone.
    const media = await Promise.all([...new Set(e.appearances.map((a) => a.mediaId))].map(async (id) => [id, await ctx.client.files.retrieve(id).catch(() => null)] as const));
    const names = new Map(media.map(([id, m]) => [id, m ? recordingName(m) : '-']));
    const apps = e.appearances.map((a) => [`  ${a.mediaId}`, names.get(a.mediaId) ?? '-', speakerName(a.speakerIndex), formatSec(a.speechSec)]);
    ctx.out.result(e, [show(e), ...(apps.length ? [table(apps)] : [])].join('\n'));
  },
};

export const entitiesLabel: Command = {
  summary: 'set an entity\'s label (a name); an empty LABEL clears it',
  usage: ['entities label ID LABEL'],
  async run(ctx, args) {
    const id = need(args, 0, 'ID');
    if (args[1] === undefined) throw new UsageError('missing LABEL');
    const e = await ctx.client.entities.update(id, { label: args.slice(1).join(' ') || null });
    ctx.out.result(e, show(e));
  },
};

export const entitiesTag: Command = {
  summary: 'add tags to an entity',
  usage: ['entities tag ID TAG…'],
  async run(ctx, args) {
    const id = need(args, 0, 'ID');
    if (args.length < 2) throw new UsageError('missing TAG');
    const e = await ctx.client.entities.tag(id, args.slice(1));
    ctx.out.result(e, show(e));
  },
};

export const entitiesUntag: Command = {
  summary: 'remove a tag from an entity',
  usage: ['entities untag ID TAG'],
  async run(ctx, args) {
    const e = await ctx.client.entities.untag(need(args, 0, 'ID'), need(args, 1, 'TAG'));
    ctx.out.result(e, show(e));
  },
};

export const entitiesMerge: Command = {
  summary: 'merge entities that are the same person into one',
  usage: ['entities merge INTO FROM…'],
  async run(ctx, args) {
    const into = need(args, 0, 'INTO');
    if (args.length < 2) throw new UsageError('missing FROM');
    const e = await ctx.client.entities.merge({ into, from: args.slice(1) });
    ctx.out.result(e, show(e));
  },
};

export const entitiesMetrics: Command = {
  summary: 'an entity\'s measurements: its profile and each appearance (a table, or CSV with --csv)',
  usage: ['entities metrics ID [--csv]'],
  options: { csv: { type: 'boolean' } },
  async run(ctx, args, flags) {
    const e = await ctx.client.entities.metrics(need(args, 0, 'ID'));
    if (flags.csv && !ctx.out.json) {
      ctx.out.result(null, entityMetricsCsv(e));
      return;
    }
    const heads = ['profile', ...e.appearances.map((a) => `${a.mediaId} ${speakerName(a.speakerIndex)}`)];
    ctx.out.result(e, table(measuresTable(heads, [e.metrics, ...e.appearances.map((a) => a.metrics)])));
  },
};
