// Decoding entry point: any media path to 16 kHz mono float chunks. WAV is read natively (no
// process spawn, exact); everything else goes through ffmpeg, which also mixes and resamples.
import { spawn } from 'node:child_process';
import { openSync, readSync, closeSync } from 'node:fs';
import { EngineError } from '../types.ts';
import { looksLikeWav, readWavFormat, readWavMono } from './wav.ts';
import { StreamingResampler } from './resample.ts';

export const ANALYSIS_RATE = 16000;

export interface DecodeOptions {
  /** Path to an ffmpeg binary; without it only WAV can be read. */
  ffmpegPath?: string;
  signal?: AbortSignal;
}

function readHead(path: string): Buffer {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    throw new EngineError('media_unreadable', `cannot open media: ${(err as Error).message}`);
  }
  try {
    const head = Buffer.alloc(64);
    const n = readSync(fd, head, 0, 64, 0);
    return head.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

function* decodeWav(path: string): Generator<Float32Array, void, undefined> {
  const format = readWavFormat(path);
  const resampler = format.sampleRate === ANALYSIS_RATE ? null : new StreamingResampler(format.sampleRate, ANALYSIS_RATE);
  for (const chunk of readWavMono(path)) {
    const out = resampler ? resampler.push(chunk) : chunk;
    if (out.length) yield out;
  }
  if (resampler) {
    const tail = resampler.flush();
    if (tail.length) yield tail;
  }
}

async function* decodeWithFfmpeg(path: string, ffmpegPath: string, signal?: AbortSignal): AsyncGenerator<Float32Array, void, undefined> {
  const args = ['-nostdin', '-v', 'error', '-i', path, '-vn', '-ac', '1', '-ar', String(ANALYSIS_RATE), '-f', 'f32le', 'pipe:1'];
  const child = spawn(ffmpegPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    if (stderr.length < 4000) stderr += d.toString();
  });
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once('error', (err) => reject(new EngineError('media_unreadable', `ffmpeg failed to start: ${err.message}`)));
    child.once('close', (code) => resolve(code));
  });
  exited.catch(() => undefined); // observed below; avoid an unhandled rejection meanwhile
  const onAbort = (): void => {
    child.kill('SIGKILL');
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  let carry = Buffer.alloc(0);
  let total = 0;
  try {
    for await (const data of child.stdout as AsyncIterable<Buffer>) {
      const bytes = carry.length ? Buffer.concat([carry, data]) : data;
      const usable = bytes.length - (bytes.length % 4);
      carry = Buffer.from(bytes.subarray(usable));
      if (usable === 0) continue;
      // Copy into an aligned buffer: the pipe's chunks may start at any byte offset.
      const out = new Float32Array(usable / 4);
      new Uint8Array(out.buffer).set(bytes.subarray(0, usable));
      total += out.length;
      yield out;
    }
    const code = await exited;
    if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('aborted');
    if (code !== 0) throw new EngineError('media_unreadable', `ffmpeg could not decode the media: ${stderr.trim().split('\n').slice(-2).join(' ') || `exit ${code}`}`);
    if (total === 0) throw new EngineError('media_unreadable', 'the media has no audio samples');
  } finally {
    signal?.removeEventListener('abort', onAbort);
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

/** Streams the media at `path` as 16 kHz mono float chunks. Throws EngineError('media_unreadable'). */
export async function* decodeAudio(path: string, options: DecodeOptions = {}): AsyncGenerator<Float32Array, void, undefined> {
  const head = readHead(path);
  if (head.length === 0) throw new EngineError('media_unreadable', 'the media file is empty');
  if (looksLikeWav(head)) {
    let total = 0;
    for (const chunk of decodeWav(path)) {
      if (options.signal?.aborted) throw options.signal.reason instanceof Error ? options.signal.reason : new Error('aborted');
      total += chunk.length;
      yield chunk;
    }
    if (total === 0) throw new EngineError('media_unreadable', 'the WAV file has no samples');
    return;
  }
  if (!options.ffmpegPath) throw new EngineError('media_unreadable', 'not a WAV file and no ffmpeg configured to decode it');
  yield* decodeWithFfmpeg(path, options.ffmpegPath, options.signal);
}

/** Decodes a whole file into one array (tests and tools; the engine itself streams). */
export async function decodeAudioToArray(path: string, options: DecodeOptions = {}): Promise<Float32Array> {
  const chunks: Float32Array[] = [];
  let n = 0;
  for await (const c of decodeAudio(path, options)) {
    chunks.push(c);
    n += c.length;
  }
  const out = new Float32Array(n);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}
