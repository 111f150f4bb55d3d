// Transcript parsers for the three upload formats of decisions §7: WebVTT (`<v Name>` voice tags
// or `Name:` prefixes), SRT (`Name:` prefixes) and JSON `{ segments: [{ speaker, start, end,
// text }] }`. The server calls `parseTranscript` to decide whether an upload is a transcript, so
// it must never throw and must say null for anything that is not clearly one of these formats.
import type { Transcript, TranscriptCue } from '../types.ts';

/** Longest text we try to parse; larger uploads are media, not transcripts. */
const MAX_TRANSCRIPT_CHARS = 50_000_000;

export function parseTranscript(text: string): Transcript | null {
  try {
    if (typeof text !== 'string' || text.length === 0 || text.length > MAX_TRANSCRIPT_CHARS) return null;
    // A NUL byte means binary content (audio, video): not a transcript.
    if (text.includes('\u0000')) return null;
    const body = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
    const trimmed = body.trimStart();
    if (trimmed.startsWith('{')) return parseJsonTranscript(trimmed);
    if (/^WEBVTT(?:[ \t].*)?(?:\n|$)/.test(trimmed)) return parseCueBlocks(trimmed, 'webvtt');
    if (/^\d+[ \t]*\n[ \t]*[\d:]+[,.]\d+[ \t]*-->/.test(trimmed)) return parseCueBlocks(trimmed, 'srt');
    return null;
  } catch {
    return null;
  }
}

function parseJsonTranscript(text: string): Transcript | null {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isRecord(data) || !Array.isArray(data.segments)) return null;
  const cues: TranscriptCue[] = [];
  for (const item of data.segments as unknown[]) {
    if (!isRecord(item)) return null;
    const start = item.start;
    const end = item.end;
    if (typeof start !== 'number' || typeof end !== 'number') return null;
    if (!Number.isFinite(start) || !Number.isFinite(end) || start < 0 || end < start) return null;
    if (item.text !== undefined && item.text !== null && typeof item.text !== 'string') return null;
    const speakerRaw = item.speaker;
    let speaker: string | null = null;
    if (typeof speakerRaw === 'string') speaker = cleanName(speakerRaw);
    else if (typeof speakerRaw === 'number' && Number.isFinite(speakerRaw)) speaker = String(speakerRaw);
    else if (speakerRaw !== undefined && speakerRaw !== null) return null;
    const cueText = spokenText(typeof item.text === 'string' ? item.text : '');
    cues.push({ speaker, start, end, text: cueText });
  }
  if (cues.length === 0) return null;
  cues.sort((a, b) => a.start - b.start || a.end - b.end);
  return { format: 'json', cues };
}

/** `hh:mm:ss.mmm`, `mm:ss.mmm` (WebVTT) or `hh:mm:ss,mmm` (SRT) → seconds. */
const TIMESTAMP = String.raw`(?:(\d+):)?(\d{1,2}):(\d{1,2})[.,](\d{1,3})`;
const TIMING_LINE = new RegExp(String.raw`^\s*${TIMESTAMP}\s*-->\s*${TIMESTAMP}(?:\s.*)?$`);

function toSeconds(h: string | undefined, m: string | undefined, s: string | undefined, ms: string | undefined): number {
  const frac = (ms ?? '0').padEnd(3, '0');
  return Number(h ?? 0) * 3600 + Number(m ?? 0) * 60 + Number(s ?? 0) + Number(frac) / 1000;
}

function parseCueBlocks(text: string, format: 'webvtt' | 'srt'): Transcript | null {
  const blocks = text.split(/\n[ \t]*\n+/);
  const cues: TranscriptCue[] = [];
  for (const [b, block] of blocks.entries()) {
    const lines = block.split('\n').filter((l) => l.trim() !== '');
    if (lines.length === 0) continue;
    if (format === 'webvtt' && b === 0 && lines[0]?.startsWith('WEBVTT')) {
      // The header block may carry a cue directly only in broken files; ignore its metadata.
      lines.shift();
      if (lines.length === 0) continue;
    }
    const head = lines[0] ?? '';
    if (format === 'webvtt' && /^(NOTE|STYLE|REGION)\b/.test(head)) continue;
    const timingIndex = lines.findIndex((l) => TIMING_LINE.test(l));
    // A timing line comes first, or after one identifier line; anything else is not a cue.
    if (timingIndex < 0 || timingIndex > 1) continue;
    const match = TIMING_LINE.exec(lines[timingIndex] ?? '');
    if (!match) continue;
    const start = toSeconds(match[1], match[2], match[3], match[4]);
    const end = toSeconds(match[5], match[6], match[7], match[8]);
    if (!(end >= start)) continue;
    const raw = lines.slice(timingIndex + 1).join('\n');
    const { speaker, text: cueText } = extractSpeaker(raw);
    cues.push({ speaker, start, end, text: cueText });
  }
  if (cues.length === 0) return null;
  cues.sort((a, b) => a.start - b.start || a.end - b.end);
  return { format, cues };
}

/** A speaker-name prefix: up to four words, letters first, no sentence punctuation. */
const NAME_PREFIX = /^([\p{L}][\p{L}\p{N}'’.\-_]*(?:[ \t][\p{L}\p{N}'’.\-_]+){0,3})[ \t]*:[ \t]*(.*)$/su;

function extractSpeaker(raw: string): { speaker: string | null; text: string } {
  let speaker: string | null = null;
  const voice = /<v(?:\.[^\s>]*)?[ \t]+([^>]+)>/.exec(raw);
  if (voice?.[1]) speaker = cleanName(voice[1]);
  let text = decodeEntities(raw.replace(/<[^>]*>/g, ''));
  text = normaliseSpace(text);
  if (speaker === null) {
    const prefix = NAME_PREFIX.exec(text);
    // "Note: …" style prefixes look like names too; a time like "10:30" never matches (digit first).
    if (prefix?.[1] && prefix[2] !== undefined) {
      speaker = cleanName(prefix[1]);
      text = prefix[2].trim();
    }
  }
  return { speaker, text: spokenText(text) };
}

/**
 * The words of a cue: square-bracketed descriptions ("[laughter]", "[Ada speaking]", which the
 * service's own exports write where no words are known) are captions' notes of sounds, not
 * speech, so pace and language style do not count them.
 */
function spokenText(text: string): string {
  return normaliseSpace(text.replace(/\[[^[\]]*\]/g, ' '));
}

function cleanName(name: string): string | null {
  const cleaned = normaliseSpace(name.replace(/[<>]/g, ''));
  return cleaned.length > 0 ? cleaned : null;
}

function normaliseSpace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&nbsp;/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
