// The four illustration variants of a result document, drawn by the analysis package's shared
// renderer (@rapport/analysis/render): the very figures of the HTML report (and, as text, of the
// Markdown), from the same evidence. Under the `conversation` figure, the pair's turns on their
// shared recording (its diarization), overlaps shaded, drawn by the same renderer as in the report.
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { figureFor, figureSvg, pairRecording, pairTimelineCaption, pairTimelineSvg } from '@rapport/analysis/render';
import type { Figure, IllustrationVariant, MatchingEvidence, PairEvidence, ResultDocument } from '@rapport/analysis/render';
import type { Diarization } from '@rapport/client';
import { useBoxWidth } from '../ui.tsx';

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
  // Drawn one unit a pixel across its box (less its padding), up to 900.
  const width = useBoxWidth<HTMLElement>();
  const px = width.px === undefined ? undefined : Math.min(900, width.px - 24);
  return (
    <figure class="illustration" data-variant={variant} ref={width.ref}>
      {!evidence ? <p>The evidence behind this result is not available, so this figure cannot be drawn.</p>
        : figure ? (
          <>
            <figcaption>{figure.title}</figcaption>
            {/* The shared renderer's SVG: built from escaped text and numbers only, no script, nothing fetched. */}
            <div class="figure-svg" dangerouslySetInnerHTML={{ __html: figureSvg(figure, { width: px }) }} />
          </>
        ) : <p>{MISSING[variant]}</p>}
      {evidence && drawn?.pair ? <PairTimeline evidence={evidence} pair={drawn.pair} diarization={diarization} /> : null}
    </figure>
  );
}

/** The pair's turns on the first recording they share, overlaps shaded: the HTML report's own drawing (pair-timeline.ts). */
function PairTimeline({ evidence, pair, diarization }: { evidence: MatchingEvidence; pair: PairEvidence; diarization: (mediaId: string) => Promise<Diarization> }): JSX.Element | null {
  const mediaId = pairRecording(pair);
  const [d, setD] = useState<Diarization | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (mediaId) diarization(mediaId).then(setD, () => setFailed(true));
  }, [mediaId]);
  if (!mediaId) return null;
  if (failed) return <p>The shared recording’s timeline could not be read (it may have been deleted).</p>;
  if (!d) return <p class="loading">Loading the shared conversation…</p>;
  const svg = pairTimelineSvg(evidence, pair, d);
  if (!svg) return null;
  return (
    <div class="pair-timeline">
      <p class="hint">{pairTimelineCaption(d)}</p>
      {/* The shared renderer's SVG: built from escaped text and numbers only, no script, nothing fetched. */}
      <div dangerouslySetInnerHTML={{ __html: svg }} />
    </div>
  );
}
