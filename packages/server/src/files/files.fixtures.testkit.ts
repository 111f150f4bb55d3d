// Upload fixtures for the tests, generated in code: WAV written sample by sample, compressed
// formats made by FFmpeg compiled to WebAssembly from a generated WAV, transcripts as text, and a
// multipart body builder (so that tests control every part, including broken ones).
import { pcm16WavHeader } from '@rapport/analysis';
import { ffmpegEncode } from '@rapport/analysis/testkit';
import { alternatingTwoVoices } from '@rapport/analysis/synthetic';

/** Calls of wavFile and twoVoiceWav so far: each call's file differs from every other's in its last sample. */
let made = 0;

/**
 * 16-bit PCM mono WAV: a tone that changes pitch every half second, `seconds` long. Each call
 * gives other bytes (its last sample differs), so that two uploads of two calls are two media, as
 * two recordings are; the same bytes uploaded again are the first media (decisions §18), which a
 * test asks for by uploading one call's buffer twice.
 */
export function wavFile(seconds: number, sampleRate = 16_000): Buffer {
  const samples = Math.round(seconds * sampleRate);
  const buf = Buffer.alloc(44 + samples * 2);
  pcm16WavHeader(samples * 2, sampleRate).copy(buf, 0);
  for (let i = 0; i < samples; i++) {
    const f = Math.floor(i / (sampleRate / 2)) % 2 === 0 ? 220 : 330;
    buf.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * f * i) / sampleRate)), 44 + i * 2);
  }
  if (samples > 0) buf.writeInt16LE((made++ % 30_000) + 1, 44 + (samples - 1) * 2);
  return buf;
}

/**
 * Two alternating synthetic voices (a man near 120 Hz and a woman near 210 Hz, 3.5 s turns every
 * 4 s; speech/synthetic.ts's alternatingTwoVoices), 16 kHz mono PCM WAV, for tests that run the real engine.
 */
export function twoVoiceWav(seconds = 24, sampleRate = 16_000): Buffer {
  const samples = alternatingTwoVoices(seconds, { rate: sampleRate });
  const buf = Buffer.alloc(44 + samples.length * 2);
  pcm16WavHeader(samples.length * 2, sampleRate).copy(buf, 0);
  samples.forEach((v, i) => buf.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(v * 32767))), 44 + i * 2));
  // Other bytes on every call, as wavFile's (one sample at the very end, inaudible to the engine).
  if (samples.length > 0) buf.writeInt16LE((made++ % 30_000) + 1, 44 + (samples.length - 1) * 2);
  return buf;
}

/**
 * Encodes a generated WAV with FFmpeg compiled to WebAssembly (the decoder's own package) and
 * answers the file. `video` adds a small test-pattern video track (H.264 in MP4/MOV/MKV, VP8 in
 * WebM).
 */
export async function encodeWith(ext: 'mp3' | 'ogg' | 'flac' | 'm4a' | 'aac' | 'webm' | 'mkv' | 'mp4' | 'mov', opts: { seconds?: number; video?: boolean } = {}): Promise<Buffer> {
  const seconds = opts.seconds ?? 2;
  const inputArgs = opts.video ? ['-f', 'lavfi', '-i', `testsrc=size=64x64:rate=5:duration=${seconds}`] : [];
  const out: string[] = [];
  if (opts.video) out.push(...(ext === 'webm' ? ['-c:v', 'libvpx'] : ['-c:v', 'libx264', '-pix_fmt', 'yuv420p']), '-shortest');
  const audio: Record<typeof ext, string[]> = {
    mp3: ['-c:a', 'libmp3lame', '-f', 'mp3'],
    ogg: ['-c:a', 'libopus', '-f', 'ogg'],
    flac: ['-c:a', 'flac', '-f', 'flac'],
    m4a: ['-c:a', 'aac', '-f', 'ipod'],
    aac: ['-c:a', 'aac', '-f', 'adts'],
    webm: ['-c:a', 'libopus', '-f', 'webm'],
    mkv: ['-c:a', 'libopus', '-f', 'matroska'],
    mp4: ['-c:a', 'aac', '-f', 'mp4'],
    mov: ['-c:a', 'aac', '-f', 'mov'],
  };
  // The WAV is the last input, so its index in -map follows the video's.
  const map = opts.video ? ['-map', '0:v', '-map', '1:a'] : [];
  return ffmpegEncode(wavFile(seconds), [...map, ...out, ...audio[ext]], inputArgs);
}

export const VTT = `WEBVTT

00:00:00.000 --> 00:00:02.500
<v Alice>Hello there, how are you doing today?

00:00:02.800 --> 00:00:05.000
<v Bob>Quite well, thank you. And you?

00:00:05.200 --> 00:00:07.000
<v Alice>Very well.
`;

export const SRT = `1
00:00:00,000 --> 00:00:01,500
Carol: Shall we start?

2
00:00:01,700 --> 00:00:03,900
Dave: Yes, let's begin.
`;

export const JSON_TRANSCRIPT = JSON.stringify({
  segments: [
    { speaker: 'Erin', start: 0, end: 1.5, text: 'Good morning.' },
    { speaker: 'Frank', start: 1.6, end: 4, text: 'Morning! Coffee?' },
  ],
});

/** The 8-byte PNG signature and an IHDR chunk: an image, which no upload accepts. */
export const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4b60000000049454e44ae426082', 'hex');

export interface Part {
  name: string;
  /** A file part when set (even to ''); a text field otherwise. */
  filename?: string;
  contentType?: string;
  data: Buffer | string;
}

export const BOUNDARY = '----rapport-test-boundary-7MA4YWxkTrZu0gW';

/** A multipart/form-data body and its headers. */
export function multipart(parts: Part[]): { payload: Buffer; headers: Record<string, string> } {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    let head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${p.name}"`;
    if (p.filename !== undefined) head += `; filename="${p.filename}"`;
    head += '\r\n';
    if (p.filename !== undefined || p.contentType) head += `Content-Type: ${p.contentType ?? 'application/octet-stream'}\r\n`;
    chunks.push(Buffer.from(`${head}\r\n`, 'utf8'), Buffer.isBuffer(p.data) ? p.data : Buffer.from(p.data, 'utf8'), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` } };
}

/** One `file` part (and optional text fields): the common upload. */
export function fileUpload(data: Buffer | string, filename = 'upload.bin', fields: Record<string, string> = {}, contentType = 'application/octet-stream') {
  return multipart([...Object.entries(fields).map(([name, value]) => ({ name, data: value })), { name: 'file', filename, contentType, data }]);
}

// Ana 0.5–4.5 and 9.3–13.3 (8 s), Ben 4–8.9 and 13.7–17.7 (8.9 s).
/** A transcript of two names, Ana and Ben, with one overlap (decisions §19 tests in the server, CLI and dashboard). */
export const TWO_NAMES_VTT = `WEBVTT

00:00:00.500 --> 00:00:04.500
<v Ana>Hello Ben, how was the trip? Tell me everything about it.

00:00:04.000 --> 00:00:08.900
<v Ben>It was long, but we made it. I think we should plan the next one together.

00:00:09.300 --> 00:00:13.300
<v Ana>Maybe we could go in spring? I would like that a lot.

00:00:13.700 --> 00:00:17.700
<v Ben>Yes, spring works for us. We will look at the dates tonight.
`;
