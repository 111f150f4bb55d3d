// The pair's turns on the recording they share, overlaps shaded, as one SVG element: drawn the
// same in the standalone HTML report and in the dashboard (issue 33 item 14: one renderer for
// both), under the `conversation` figure of each pair that spoke together. Pure string building
// from the evidence and the shared recording's diarization; no script, nothing fetched.
import { escapeXml } from './figure-svg.ts';
import type { MatchingEvidence, MemberEvidence, PairEvidence, ResultDocument } from './types.ts';

/** A recording's diarization, as the API answers it (seconds; speakers by index). */
export interface SharedDiarization {
  durationSec: number | null;
  segments: readonly { speaker: number; start: number; end: number }[];
}

/** The two speakers' colours: the first two of the Okabe–Ito palette the dashboard uses. */
const COLOURS = ['#0072B2', '#D55E00'] as const;
/** Names stand above their row across the whole width: past this many characters (about the width) they end in an ellipsis, whole in the tooltip. */
const NAME_CHARS = 100;

function clock(sec: number): string {
  const t = Math.round(Math.max(0, sec) * 10);
  return `${Math.floor(t / 600)}:${((t % 600) / 10).toFixed(1).padStart(4, '0')}`;
}

const nameOf = (m: MemberEvidence): string => m.shortName ?? m.name;
const short = (s: string): string => ([...s].length > NAME_CHARS ? `${[...s].slice(0, NAME_CHARS - 1).join('')}…` : s);

/** For a matching document's k-th `conversation` block: its k-th pair that met (the order the renderer counts). */
export function conversationPairs(doc: ResultDocument, evidence: MatchingEvidence): (PairEvidence | null)[] {
  const met = evidence.kind === 'matching' ? evidence.pairs.filter((p) => p.met) : [];
  const out: (PairEvidence | null)[] = [];
  for (const s of doc.sections) {
    const c = s.section_content;
    const blocks = Array.isArray(c) ? c : 'type' in c ? [c] : [];
    for (const b of blocks) if (b.type === 'illustration' && b.variant === 'conversation') out.push(met[out.length] ?? null);
  }
  return out;
}

/** The recording a pair's timeline is drawn from: the first they share. */
export function pairRecording(pair: PairEvidence): string | null {
  return pair.sharedMediaIds[0] ?? null;
}

/** The SVG of the pair's turns on `d`, the diarization of `pairRecording(pair)`; null when the pair is not in it. */
export function pairTimelineSvg(evidence: MatchingEvidence, pair: PairEvidence, d: SharedDiarization): string | null {
  const mediaId = pairRecording(pair);
  const member = evidence.kind === 'matching' ? evidence.group.find((g) => g.ref === pair.member) : undefined;
  if (!member || !mediaId) return null;
  const a = evidence.target.appearances.find((x) => x.mediaId === mediaId)?.speakerIndex;
  const b = member.appearances.find((x) => x.mediaId === mediaId)?.speakerIndex;
  if (a === undefined || b === undefined) return null;
  const rows = [{ name: nameOf(evidence.target), sp: a }, { name: nameOf(member), sp: b }];
  const dur = Math.max(lastEnd(d), 0.001);
  const x = (t: number): number => Number((10 + (t / dur) * 740).toFixed(2));
  const w = (s: { start: number; end: number }): number => Math.max(1, Number((x(s.end) - x(s.start)).toFixed(2)));
  const segs = (sp: number) => d.segments.filter((s) => s.speaker === sp);
  const overlaps = overlapsOf(segs(a), segs(b));
  const label = `Turns of ${rows[0]!.name} and ${rows[1]!.name} over ${clock(dur)}, ${overlaps.length} ${overlaps.length === 1 ? 'overlap' : 'overlaps'}`;
  const body = rows.flatMap((r, i) => [
    `<text x="10" y="${i * 48 + 16}" font-size="14" fill="#1f2937">${escapeXml(short(r.name))}<title>${escapeXml(r.name)}</title></text>`,
    ...segs(r.sp).map((s) => `<rect x="${x(s.start)}" y="${i * 48 + 22}" width="${w(s)}" height="20" fill="${COLOURS[i] ?? '#333'}"/>`),
  ]);
  const shade = overlaps.map((o) => `<rect class="overlap" x="${x(o.start)}" y="20" width="${w(o)}" height="72" fill="#000" fill-opacity="0.25"/>`);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" class="pair-timeline-svg" viewBox="0 0 760 124" width="100%" role="img" aria-label="${escapeXml(label)}" font-family="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif">`,
    ...body,
    ...shade,
    `<text x="10" y="116" font-size="14" fill="#4b5563">0:00</text>`,
    `<text x="750" y="116" text-anchor="end" font-size="14" fill="#4b5563">${clock(dur)}</text>`,
    '</svg>',
  ].join('\n');
}

/** The later of the duration and the last segment's end; a fold, as a long recording's segments outnumber what Math.max(...) can take. */
function lastEnd(d: SharedDiarization): number {
  return d.segments.reduce((m, s) => Math.max(m, s.end), Math.max(d.durationSec ?? 0, 0));
}

/** The caption above it. */
export function pairTimelineCaption(d: SharedDiarization): string {
  const dur = lastEnd(d);
  return `Their turns in the recording they share (${clock(dur)}), overlaps shaded:`;
}

type Span = { start: number; end: number };

/**
 * Every overlap of a segment of `as` with one of `bs`, in the order of a loop over `as` then
 * `bs`, found by one sweep over both by start (issue 41, finding 2: comparing every segment of
 * one speaker with every one of the other held the event loop 2.3 s on 18,642 segments). Only
 * the segments still open when another starts are compared.
 */
export function overlapsOf(as: readonly Span[], bs: readonly Span[]): Span[] {
  const order = (list: readonly Span[]) => list.map((_, i) => i).sort((i, j) => (list[i]?.start ?? 0) - (list[j]?.start ?? 0) || i - j);
  const oa = order(as);
  const ob = order(bs);
  const found: { i: number; j: number; start: number; end: number }[] = [];
  let openA: number[] = [];
  let openB: number[] = [];
  let p = 0;
  let q = 0;
  while (p < oa.length || q < ob.length) {
    const ia = oa[p];
    const jb = ob[q];
    const takeA = jb === undefined || (ia !== undefined && (as[ia]?.start ?? 0) <= (bs[jb]?.start ?? 0));
    if (takeA && ia !== undefined) {
      const s = as[ia] as Span;
      openB = openB.filter((j) => (bs[j]?.end ?? 0) > s.start);
      for (const j of openB) found.push({ i: ia, j, start: s.start, end: Math.min(s.end, bs[j]?.end ?? 0) });
      openA.push(ia);
      p++;
    } else if (jb !== undefined) {
      const t = bs[jb] as Span;
      openA = openA.filter((i) => (as[i]?.end ?? 0) > t.start);
      for (const i of openA) {
        const start = Math.max(as[i]?.start ?? 0, t.start);
        const end = Math.min(as[i]?.end ?? 0, t.end);
        if (end > start) found.push({ i, j: jb, start, end });
      }
      openB.push(jb);
      q++;
    }
  }
  return found.filter((o) => o.end > o.start).sort((x, y) => x.i - y.i || x.j - y.j).map(({ start, end }) => ({ start, end }));
}
