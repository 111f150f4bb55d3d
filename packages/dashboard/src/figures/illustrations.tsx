// The four illustration variants of a result document, drawn from its evidence as SVG figures.
// This is the one module that knows how; it is meant to be swapped for the shared renderer of
// packages/analysis/src/documents once that exists (same props: variant, evidence, a way to read
// a recording's diarization).
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { Diarization } from '@rapport/client';
import { fmtSec, speakerColour } from '../ui.tsx';

/** The part of the matching evidence (docs/analysis.md) these figures read. */
export interface FigureEvidence {
  method?: { growthThreshold?: number };
  target?: MemberEv;
  group?: MemberEv[];
  pairs?: { member: string; name: string; met: boolean; sharedMediaIds: string[]; overall: { score: number | null; confidence: number }; components: { key: string; name: string; score: number | null; confidence: number }[] }[];
  dimensions?: { key: string; name: string; score: number; pairs: number }[];
}
interface MemberEv {
  ref: string;
  name: string;
  speechMin: number;
  profileConfidence: number;
  mediaCount: number;
  appearances: { mediaId: string; speakerIndex: number }[];
}

export type Variant = 'connection' | 'conversation' | 'growth' | 'analysis';
const CAPTIONS: Record<Variant, string> = {
  connection: 'Connection: the overall score of each pair (0–100); paler bars rest on less data.',
  conversation: 'Conversation: the pair’s turns on a shared timeline, with gaps and overlaps.',
  growth: 'Growth: where each component stands against the growth threshold.',
  analysis: 'Analysis: how much data each figure rests on.',
};

export function Illustration({ variant, evidence, diarization }: { variant: Variant; evidence: FigureEvidence | null; diarization: (mediaId: string) => Promise<Diarization> }): JSX.Element {
  let body: JSX.Element;
  if (!evidence) body = <p>The evidence behind this result is not available, so this figure cannot be drawn.</p>;
  else if (variant === 'connection') body = <Connection ev={evidence} />;
  else if (variant === 'conversation') body = <Conversation ev={evidence} diarization={diarization} />;
  else if (variant === 'growth') body = <Growth ev={evidence} />;
  else body = <Analysis ev={evidence} />;
  return (
    <figure class="illustration" data-variant={variant}>
      {body}
      <figcaption>{CAPTIONS[variant]}</figcaption>
    </figure>
  );
}

const short = (name: string): string => (name.length > 30 ? `${name.slice(0, 29)}…` : name);

function Bars({ rows, label, threshold }: { rows: { name: string; value: number | null; opacity?: number; text: string }[]; label: string; threshold?: number }): JSX.Element {
  const h = rows.length * 26 + 8;
  const x = (v: number): number => 210 + (v / 100) * 280;
  return (
    <svg viewBox={`0 0 760 ${h}`} role="img" aria-label={`${label}: ${rows.map((r) => `${r.name} ${r.text}`).join('; ')}`}>
      {rows.map((r, i) => (
        <g key={`${r.name}-${i}`}>
          <text x={202} y={i * 26 + 20} text-anchor="end" class="axis">{short(r.name)}</text>
          <rect x={210} y={i * 26 + 8} width={280} height={16} fill="#eee" />
          {r.value !== null ? <rect x={210} y={i * 26 + 8} width={Math.max(1, x(r.value) - 210)} height={16} fill="#0072B2" fill-opacity={r.opacity ?? 1} /> : null}
          <text x={496} y={i * 26 + 20} class="axis">{r.text}</text>
        </g>
      ))}
      {threshold !== undefined ? <line x1={x(threshold)} x2={x(threshold)} y1={2} y2={h - 2} stroke="#D55E00" stroke-width={2} stroke-dasharray="4 3" /> : null}
    </svg>
  );
}

function Connection({ ev }: { ev: FigureEvidence }): JSX.Element {
  const pairs = ev.pairs ?? [];
  if (!pairs.length) return <p>No pairs in this result.</p>;
  return <Bars label="Pair scores" rows={pairs.map((p) => ({
    name: `${ev.target?.name ?? 'Target'} & ${p.name}`,
    value: p.overall.score,
    opacity: 0.35 + 0.65 * p.overall.confidence,
    text: p.overall.score === null ? 'not scored' : `${Math.round(p.overall.score)} (confidence ${Math.round(p.overall.confidence * 100)}%)`,
  }))} />;
}

function Growth({ ev }: { ev: FigureEvidence }): JSX.Element {
  const dims = ev.dimensions ?? [];
  const threshold = ev.method?.growthThreshold ?? 60;
  if (!dims.length) return <p>No component was scored, so there is nothing to grow from yet.</p>;
  return <Bars label={`Component scores against the growth threshold ${threshold}`} threshold={threshold}
    rows={dims.map((d) => ({ name: d.name, value: d.score, text: `${Math.round(d.score)}${d.score < threshold ? ' · room to grow' : ''}` }))} />;
}

function Analysis({ ev }: { ev: FigureEvidence }): JSX.Element {
  const members = [ev.target, ...(ev.group ?? [])].filter((m): m is MemberEv => !!m);
  return <Bars label="Speech behind each profile" rows={members.map((m) => ({
    name: m.name,
    value: m.profileConfidence * 100,
    text: `${m.speechMin.toFixed(1)} min in ${m.mediaCount} recording${m.mediaCount === 1 ? '' : 's'}`,
  }))} />;
}

function Conversation({ ev, diarization }: { ev: FigureEvidence; diarization: (mediaId: string) => Promise<Diarization> }): JSX.Element {
  const pair = (ev.pairs ?? []).find((p) => p.sharedMediaIds.length > 0);
  const member = pair ? (ev.group ?? []).find((g) => g.ref === pair.member) : undefined;
  const mediaId = pair?.sharedMediaIds[0];
  const [d, setD] = useState<Diarization | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (mediaId) diarization(mediaId).then(setD, () => setFailed(true));
  }, [mediaId]);
  if (!pair || !member || !mediaId || !ev.target) return <p>No pair of this result has spoken in the same recording, so there is no shared conversation to draw.</p>;
  if (failed) return <p>The shared recording’s timeline could not be read.</p>;
  if (!d) return <p class="loading">Loading the shared conversation…</p>;
  const a = ev.target.appearances.find((x) => x.mediaId === mediaId)?.speakerIndex;
  const b = member.appearances.find((x) => x.mediaId === mediaId)?.speakerIndex;
  const rows = [{ name: ev.target.name, sp: a }, { name: member.name, sp: b }];
  const dur = Math.max(d.durationSec ?? 0, ...d.segments.map((s) => s.end), 0.001);
  const x = (t: number): number => 210 + (t / dur) * 520;
  const segs = (sp: number | undefined) => d.segments.filter((s) => s.speaker === sp);
  const overlaps: { start: number; end: number }[] = [];
  for (const s of segs(a)) for (const t of segs(b)) {
    const start = Math.max(s.start, t.start);
    const end = Math.min(s.end, t.end);
    if (end > start) overlaps.push({ start, end });
  }
  return (
    <svg viewBox="0 0 760 96" role="img" aria-label={`Turns of ${rows[0]!.name} and ${rows[1]!.name} over ${fmtSec(dur)}, ${overlaps.length} overlaps`}>
      {rows.map((r, i) => (
        <g key={r.name}>
          <text x={202} y={i * 30 + 24} text-anchor="end" class="axis">{short(r.name)}</text>
          {segs(r.sp).map((s) => <rect key={s.start} x={x(s.start)} y={i * 30 + 10} width={Math.max(1, x(s.end) - x(s.start))} height={20} fill={speakerColour(i)} />)}
        </g>
      ))}
      {overlaps.map((o) => <rect key={o.start} x={x(o.start)} y={8} width={Math.max(1, x(o.end) - x(o.start))} height={54} fill="#000" fill-opacity={0.25} />)}
      <text x={210} y={88} class="axis">0:00</text>
      <text x={730} y={88} text-anchor="end" class="axis">{fmtSec(dur)}</text>
    </svg>
  );
}
