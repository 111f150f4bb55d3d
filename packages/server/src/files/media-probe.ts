// What an uploaded file holds, read from the file on disk after it was streamed there: WAV
// headers are read natively; other audio and video are probed in the media sandbox as the
// container their bytes show (which tells a video container from an audio-only one and gives the
// declared duration); text is parsed as a transcript. Anything that is none of these is a 415;
// media that declares more than MAX_MEDIA_SEC is a 413.
import { open } from 'node:fs/promises';
import { DEMUXERS, probeMedia, type ProbeOutput, type ProbeStream, type Transcript } from '@rapport/analysis';
import { ApiError } from '../errors.ts';
import type { MediaKind } from './media.store.ts';
import { sniffFormat, type ProbeFormat } from '@rapport/analysis';
import { parseTranscriptFile } from './transcript-parse.ts';
import type { TranscriptText } from './transcript-text.ts';

export interface DetectedMedia {
  kind: MediaKind;
  contentType: string;
  durationSec: number | null;
  /** A transcript's stored JSON and summary, made in the parse worker (never its cues). */
  transcript: TranscriptText | null;
}

/**
 * Transcripts are parsed whole (in a worker thread, transcript-parse.ts) and stored as one value,
 * so their size is bounded well below the media limit: 4 MiB of WebVTT is 20,000 cues of 25 words,
 * and MAX_MEDIA_SEC's 4 h of speech is about 250 KB of text. (It was 16 MiB: storing and reading
 * back such a value held the event loop for a quarter of a second; issue 32, finding 1.)
 */
export const MAX_TRANSCRIPT_BYTES = 4 * 1024 * 1024;
/**
 * And so are their cues: one every 0.72 s over MAX_MEDIA_SEC's 4 h. Every read of a transcript's
 * media and every analysis with it handles them all (a 16 MiB WebVTT held 351k cues).
 */
export const MAX_TRANSCRIPT_CUES = 20_000;

const unsupported = (message: string) => new ApiError('UNSUPPORTED_MEDIA_TYPE', message);

export async function detectMedia(filePath: string, head: Buffer, sizeBytes: number, maxMediaSec = Infinity): Promise<DetectedMedia> {
  const sniffed = sniffFormat(head);
  switch (sniffed.family) {
    case 'wav':
      return withinLimit({ kind: 'audio', contentType: 'audio/wav', durationSec: await wavDurationSec(filePath, sizeBytes), transcript: null }, maxMediaSec);
    case 'probe':
      return withinLimit(await probeContainer(filePath, sniffed.format), maxMediaSec);
    case 'text':
      return readTranscript(filePath, sizeBytes);
    case 'unknown':
      throw unsupported('The file is not in a supported format: send WAV, FLAC, MP3, Ogg/Opus, AAC/M4A audio, MP4, MOV, WebM or MKV video, or a WebVTT, SRT or JSON transcript.');
  }
}

/** Media whose container declares more than the limit is refused before anything is reserved. */
function withinLimit(detected: DetectedMedia, maxMediaSec: number): DetectedMedia {
  if (detected.durationSec !== null && detected.durationSec > maxMediaSec) {
    throw new ApiError('PAYLOAD_TOO_LARGE', `The media declares ${detected.durationSec} s; this server analyses media up to ${maxMediaSec} s (MAX_MEDIA_SEC).`);
  }
  return detected;
}

// ---- WAV ----

/**
 * Duration from the RIFF header: the `data` chunk's sample frames over the sample rate (the
 * decoder's own reading; the header's byte rate is not trusted). It is only the declared length:
 * the analysis charges the duration of the samples it decodes.
 */
export async function wavDurationSec(filePath: string, sizeBytes: number): Promise<number> {
  const fh = await open(filePath, 'r');
  try {
    const hdr = Buffer.alloc(8);
    let offset = 12;
    let byteRate: number | null = null;
    // A WAV has a handful of chunks; the bound only stops a crafted file from looping long.
    for (let i = 0; i < 256 && offset + 8 <= sizeBytes; i++) {
      const { bytesRead } = await fh.read(hdr, 0, 8, offset);
      if (bytesRead < 8) break;
      const id = hdr.toString('latin1', 0, 4);
      const size = hdr.readUInt32LE(4);
      if (id === 'fmt ') {
        const fmt = Buffer.alloc(16);
        const r = await fh.read(fmt, 0, 16, offset + 8);
        if (r.bytesRead < 16 || size < 16) throw unsupported('The WAV file has a truncated format chunk.');
        const channels = fmt.readUInt16LE(2);
        const sampleRate = fmt.readUInt32LE(4);
        const bits = fmt.readUInt16LE(14);
        if (channels === 0 || sampleRate === 0 || bits === 0) throw unsupported('The WAV file declares no channels, sample rate or sample size.');
        byteRate = sampleRate * channels * Math.ceil(bits / 8);
      } else if (id === 'data') {
        if (byteRate === null) throw unsupported('The WAV file has its data before its format chunk.');
        // Streaming writers leave the size at 0 or 0xFFFFFFFF: the data then runs to the end.
        const available = sizeBytes - (offset + 8);
        const dataBytes = size === 0 || size > available ? available : size;
        if (dataBytes <= 0) throw unsupported('The WAV file holds no audio data.');
        return round3(dataBytes / byteRate);
      }
      offset += 8 + size + (size % 2);
    }
    throw unsupported('The WAV file has no readable format and data chunks.');
  } finally {
    await fh.close();
  }
}

// ---- sandboxed probe ----

const AUDIO_TYPES: Record<ProbeFormat, string> = {
  flac: 'audio/flac',
  mp3: 'audio/mpeg',
  aac: 'audio/aac',
  ogg: 'audio/ogg',
  m4a: 'audio/mp4',
  mp4: 'audio/mp4',
  mov: 'audio/mp4',
  webm: 'audio/webm',
  mkv: 'audio/x-matroska',
};

const VIDEO_TYPES: Partial<Record<ProbeFormat, string>> = {
  ogg: 'video/ogg',
  m4a: 'video/mp4',
  mp4: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
  mkv: 'video/x-matroska',
};

async function probeContainer(filePath: string, format: ProbeFormat): Promise<DetectedMedia> {
  const probe = await probeMedia(filePath, DEMUXERS[format]);
  const streams = probe?.streams ?? [];
  const audio = streams.filter((s) => s.codec_type === 'audio');
  if (!probe || audio.length === 0) {
    throw unsupported(probe ? `The ${format} file has no audio track.` : `The file looks like ${format} but could not be read as media.`);
  }
  // Cover art in MP3/M4A files is a one-frame "video" stream; it does not make the file a video.
  const hasVideo = streams.some((s) => s.codec_type === 'video' && s.disposition?.attached_pic !== 1);
  const videoType = hasVideo ? VIDEO_TYPES[format] : undefined;
  // An ID3 tag in front of ADTS frames sniffs as MP3; the codec says what it really is.
  const contentType = videoType ?? (format === 'mp3' && audio[0]?.codec_name === 'aac' ? 'audio/aac' : AUDIO_TYPES[format]);
  return { kind: videoType ? 'video' : 'audio', contentType, durationSec: probeDuration(probe, audio), transcript: null };
}

function probeDuration(probe: ProbeOutput, audio: ProbeStream[]): number | null {
  const candidates = [probe.format?.duration, ...audio.map((s) => s.duration)].map((d) => Number(d)).filter((d) => Number.isFinite(d) && d > 0);
  const first = candidates[0];
  return first === undefined ? null : round3(first);
}

// ---- transcripts ----

const TRANSCRIPT_TYPES: Record<Transcript['format'], string> = {
  webvtt: 'text/vtt',
  srt: 'application/x-subrip',
  json: 'application/json',
};

async function readTranscript(filePath: string, sizeBytes: number): Promise<DetectedMedia> {
  if (sizeBytes > MAX_TRANSCRIPT_BYTES) {
    throw new ApiError('PAYLOAD_TOO_LARGE', `Transcripts are limited to ${MAX_TRANSCRIPT_BYTES / (1024 * 1024)} MiB.`);
  }
  const parsed = await parseTranscriptFile(filePath, MAX_TRANSCRIPT_CUES);
  if ('error' in parsed) {
    switch (parsed.error) {
      case 'not_utf8':
        throw unsupported('The file is text but not valid UTF-8; transcripts must be UTF-8.');
      case 'not_transcript':
        throw unsupported('The file is text but no supported transcript: send WebVTT, SRT or JSON {"segments":[{"speaker","start","end","text"}]}.');
      case 'too_many_cues':
        throw new ApiError('PAYLOAD_TOO_LARGE', `Transcripts are limited to ${MAX_TRANSCRIPT_CUES} cues; this one has ${parsed.cues}.`);
      case 'failed':
        throw new Error(`the transcript could not be parsed: ${parsed.message}`);
    }
  }
  const transcript = parsed.transcript;
  return { kind: 'transcript', contentType: TRANSCRIPT_TYPES[transcript.format], durationSec: transcript.durationSec, transcript };
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
