// The API's diarization WebVTT (GET /v1/files/:id/diarization?format=vtt) read back into the
// timeline's cues: pure, so that it is tested without a browser.
import type { Segment } from '../figures/speaker-stats.ts';

export interface Cue {
  start: number;
  end: number;
  speaker: number;
  /** The words, or null where the transcript has none for this segment. */
  text: string | null;
}

/** A caption's sound description, alone: not words anyone said. */
const DESCRIPTION = /^\[[^\]]*\]$/;

function seconds(clock: string): number {
  const [h = '0', m = '0', s = '0'] = clock.split(':');
  return Number(h) * 3600 + Number(m) * 60 + Number(s);
}

function unescape(s: string): string {
  return s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/**
 * The cues of the API's diarization WebVTT: cue k is segment k of the diarization, which gives its
 * speaker; the voice is the speaker's display name (decisions §17). A cue whose text is only a
 * bracketed description (`[Ada speaking]`, what the export writes where no words fell) or only
 * the name (exports before that) has no words.
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
    const words = text !== '' && text !== unescape(voice[1] ?? '') && !DESCRIPTION.test(text);
    cues.push({ start: seconds(from), end: seconds(to), speaker, text: words ? text : null });
  }
  return cues;
}
