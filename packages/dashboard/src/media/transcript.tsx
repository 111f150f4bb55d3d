// The transcript aligned to the timeline. The API places an attached transcript's words on the
// diarization's segments in its WebVTT export (GET /v1/files/:id/diarization?format=vtt: one cue
// per segment, in segment order, `<v Name>` and the words spoken in it, or the name alone
// where none fell), so cue k is the text of segment k of the timeline.
import type { JSX } from 'preact';
import { fmtSec, speakerColour } from '../ui.tsx';
import type { Segment } from '../figures/speaker-stats.ts';

export interface Cue {
  start: number;
  end: number;
  speaker: number;
  /** The words, or null where the transcript has none for this segment. */
  text: string | null;
}

function seconds(clock: string): number {
  const [h = '0', m = '0', s = '0'] = clock.split(':');
  return Number(h) * 3600 + Number(m) * 60 + Number(s);
}

function unescape(s: string): string {
  return s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/**
 * The cues of the API's diarization WebVTT: cue k is segment k of the diarization, which gives its
 * speaker; the voice is the speaker's display name (decisions §17), and a cue whose text is only
 * that name has no words.
 */
export function parseDiarizationVtt(vtt: string, segments: readonly Segment[]): Cue[] {
  const cues: Cue[] = [];
  for (const block of vtt.replace(/\r\n?/g, '\n').split(/\n{2,}/)) {
    const lines = block.split('\n');
    const at = lines.findIndex((l) => l.includes('-->'));
    if (at < 0) continue;
    const [from = '', to = ''] = (lines[at] as string).split('-->').map((x) => x.trim());
    const body = lines.slice(at + 1).join(' ');
    const voice = /^<v ([^>]*)>(.*)$/.exec(body);
    if (!voice) continue;
    const speaker = segments[cues.length]?.speaker ?? 0;
    const text = unescape((voice[2] ?? '').trim());
    cues.push({ start: seconds(from), end: seconds(to), speaker, text: text && text !== unescape(voice[1] ?? '') ? text : null });
  }
  return cues;
}

/** The segment's words, by segment index (cue k is segment k). */
export function textsBySegment(cues: readonly Cue[], segments: readonly Segment[]): (string | null)[] {
  return segments.map((_s, k) => cues[k]?.text ?? null);
}

/** Each line of the transcript at its time, its speaker's colour; the line playing is marked. */
export function Transcript({ cues, name, at, onPlay }: { cues: readonly Cue[]; name: (speaker: number) => string; at: number | null; onPlay: ((c: Cue) => void) | null }): JSX.Element {
  const lines = cues.filter((c) => c.text !== null);
  if (!lines.length) return <p>The transcript attached to this recording has no words on its speech.</p>;
  return (
    <ol class="transcript" aria-label="Transcript, aligned to the timeline">
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
