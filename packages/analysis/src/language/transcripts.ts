// Transcript parsers for the three upload formats of decisions §7: WebVTT (`<v Name>` voice tags
// or `Name:` prefixes), SRT (`Name:`, `- Name:` and `[Name]` prefixes: speaker-labels.ts) and
// JSON `{ segments: [{ speaker, start, end, text }] }`. The server calls `parseTranscript` to
// decide whether an upload is a transcript, so it must never throw and must say null for anything
// that is not clearly one of these formats.
import type { Transcript, TranscriptCue } from '../types.ts';
import { normaliseSpeakerName, readCueSpeakers, spokenText } from './speaker-labels.ts';

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
  const timed: { start: number; end: number; raw: string }[] = [];
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
    timed.push({ start, end, raw: lines.slice(timingIndex + 1).join('\n') });
  }
  if (timed.length === 0) return null;
  // Names are read with the whole file in view: how its other cues start says whether a prefix
  // is a name (speaker-labels.ts).
  const words = readCueSpeakers(timed.map((c) => c.raw));
  const cues: TranscriptCue[] = timed.map((c, k) => ({ speaker: words[k]?.speaker ?? null, start: c.start, end: c.end, text: words[k]?.text ?? '' }));
  cues.sort((a, b) => a.start - b.start || a.end - b.end);
  return { format, cues };
}

/**
 * A JSON name is plain data, stored as every name is (white space collapsed) and otherwise as
 * written: `<` and `>` are markup only in WebVTT, whose export writes them as references
 * (speaker-labels.ts), and every page that shows a name escapes it.
 */
function cleanName(name: string): string | null {
  const cleaned = normaliseSpeakerName(name);
  return cleaned.length > 0 ? cleaned : null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
