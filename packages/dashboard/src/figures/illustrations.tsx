// The four illustration variants of a result document, drawn by the analysis package's shared
// renderer (@rapport/analysis/render): the very figures of the HTML report (and, as text, of the
// Markdown), from the same evidence. Beside the `conversation` figure the dashboard also draws
// what only it can read: the pair's turns on their shared recording (its diarization), gaps and
// overlaps shaded.
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { figureFor, figureSvg } from '@rapport/analysis/render';
import type { Figure, IllustrationVariant, MatchingEvidence, MemberEvidence, PairEvidence, ResultDocument } from '@rapport/analysis/render';
import type { Diarization } from '@rapport/client';
import { fmtSec, speakerColour } from '../ui.tsx';

export interface Drawn {
  figure: Figure | null;
  /** For a matching document's k-th `conversation` block: its k-th pair that met. */
  pair: PairEvidence | null;
}

/** Each illustration block of the document with what to draw, by block (reading order, as the renderer counts them). */
export function illustrationsOf(doc: ResultDocument, evidence: MatchingEvidence): Map<object, Drawn> {
  const seen: Partial<Record<IllustrationVariant, number>> = {};
  const out = new Map<object, Drawn>();
  for (const s of doc.sections) {
    const c = s.section_content;
    const blocks = Array.isArray(c) ? c : 'type' in c ? [c] : [];
    for (const b of blocks) {
      if (b.type !== 'illustration') continue;
      const k = seen[b.variant] ?? 0;
      seen[b.variant] = k + 1;
      const pair = b.variant === 'conversation' && evidence.kind === 'matching' ? (evidence.pairs.filter((p) => p.met)[k] ?? null) : null;
      out.set(b, { figure: figureFor(b.variant, evidence, k), pair });
    }
  }
  return out;
}

const MISSING: Record<IllustrationVariant, string> = {
  connection: 'No pair of this result was scored, so there is no connection to draw.',
  conversation: 'No pair of this result spoke in the same recording, so there is no shared conversation to draw.',
  growth: 'Nothing was measured to grow from.',
  analysis: 'There is no measurement to describe.',
};

export function Illustration({ variant, drawn, evidence, diarization }: {
  variant: IllustrationVariant;
  drawn: Drawn | null;
  evidence: MatchingEvidence | null;
  diarization: (mediaId: string) => Promise<Diarization>;
}): JSX.Element {
  const figure = drawn?.figure ?? null;
  return (
    <figure class="illustration" data-variant={variant}>
      {!evidence ? <p>The evidence behind this result is not available, so this figure cannot be drawn.</p>
        : figure ? (
          <>
            <figcaption>{figure.title}</figcaption>
            {/* The shared renderer's SVG: built from escaped text and numbers only, no script, nothing fetched. */}
            <div class="figure-svg" dangerouslySetInnerHTML={{ __html: figureSvg(figure) }} />
          </>
        ) : <p>{MISSING[variant]}</p>}
      {evidence && drawn?.pair ? <PairTimeline evidence={evidence} pair={drawn.pair} diarization={diarization} /> : null}
    </figure>
  );
}

const short = (name: string): string => (name.length > 30 ? `${name.slice(0, 29)}…` : name);
const nameOf = (m: MemberEvidence): string => m.shortName ?? m.name;

/** The pair's turns on the first recording they share, overlaps shaded. */
function PairTimeline({ evidence, pair, diarization }: { evidence: MatchingEvidence; pair: PairEvidence; diarization: (mediaId: string) => Promise<Diarization> }): JSX.Element | null {
  const member = evidence.group.find((g) => g.ref === pair.member);
  const mediaId = pair.sharedMediaIds[0];
  const [d, setD] = useState<Diarization | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (mediaId) diarization(mediaId).then(setD, () => setFailed(true));
  }, [mediaId]);
  if (!member || !mediaId) return null;
  if (failed) return <p>The shared recording’s timeline could not be read (it may have been deleted).</p>;
  if (!d) return <p class="loading">Loading the shared conversation…</p>;
  const a = evidence.target.appearances.find((x) => x.mediaId === mediaId)?.speakerIndex;
  const b = member.appearances.find((x) => x.mediaId === mediaId)?.speakerIndex;
  const rows = [{ name: nameOf(evidence.target), sp: a }, { name: nameOf(member), sp: b }];
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
    <div class="pair-timeline">
      <p class="hint">Their turns in the recording they share ({fmtSec(dur)}), overlaps shaded:</p>
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
    </div>
  );
}
