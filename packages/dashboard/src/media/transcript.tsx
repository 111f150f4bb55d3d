// The transcript aligned to the timeline. The API places an attached transcript's words on the
// diarization's segments in its WebVTT export (GET /v1/files/:id/diarization?format=vtt: one cue
// per segment, in segment order, `<v Name>` and the words spoken in it, or `[Name speaking]`
// where none fell: vtt-cues.ts reads it), so cue k is the text of segment k of the timeline.
import type { JSX } from 'preact';
import { fmtSec, speakerColour } from '../ui.tsx';
import type { Segment } from '../figures/speaker-stats.ts';
import type { Cue } from './vtt-cues.ts';

export { parseDiarizationVtt, type Cue } from './vtt-cues.ts';

/** The segment's words, by segment index (cue k is segment k). */
export function textsBySegment(cues: readonly Cue[], segments: readonly Segment[]): (string | null)[] {
  return segments.map((_s, k) => cues[k]?.text ?? null);
}

/** Each line of the transcript at its time, its speaker's colour; the line playing is marked. */
export function Transcript({ cues, name, at, onPlay }: { cues: readonly Cue[]; name: (speaker: number) => string; at: number | null; onPlay: ((c: Cue) => void) | null }): JSX.Element {
  const lines = cues.filter((c) => c.text !== null);
  if (!lines.length) return <p>The transcript attached to this recording has no words on its speech.</p>;
  return (
    // Without audio its lines hold no button: the list itself takes the focus, so that a keyboard can scroll it.
    <ol class="transcript" aria-label="Transcript, aligned to the timeline" tabIndex={onPlay ? undefined : 0}>
      {lines.map((c) => {
        const playing = at !== null && at >= c.start && at < c.end;
        const label = `${fmtSec(c.start)} ${name(c.speaker)}`;
        return (
          <li key={c.start} class={playing ? 'playing' : undefined} aria-current={playing ? 'true' : undefined} data-start={c.start}>
            <span class="swatch" style={{ background: speakerColour(c.speaker) }} aria-hidden="true" />
            {onPlay ? <button type="button" class="link" onClick={() => onPlay(c)} aria-label={`Play ${label}`}>{label}</button> : <span>{label}</span>}
            <span class="words">{c.text}</span>
          </li>
        );
      })}
    </ol>
  );
}
