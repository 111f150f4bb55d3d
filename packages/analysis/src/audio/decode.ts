// Decoding entry point: any media path to 16 kHz mono float chunks. WAV is read natively (no
// process spawn, exact); every other format is sniffed from its bytes and decoded, as exactly that
// container, by FFmpeg compiled to WebAssembly inside the media sandbox (sandbox.ts), which can
// read nothing but the file's bytes. Decoding stops a little past `maxDurationSec`, and media
// that runs past it is refused: the decoded samples, not a header, say how long media lasts.
import { openSync, readSync, closeSync } from 'node:fs';
import { EngineError } from '../types.ts';
import { looksLikeWav, readWavFormat, readWavMono } from './wav.ts';
import { StreamingResampler } from './resample.ts';
import { DEMUXERS, SNIFF_BYTES, sniffFormat } from './sniff.ts';
import { startSandbox, watchChild } from './sandbox.ts';

export const ANALYSIS_RATE = 16000;

/** Four hours: the default ceiling on what one media file may decode to. */
export const DEFAULT_MAX_MEDIA_SEC = 4 * 3600;

export interface DecodeOptions {
  signal?: AbortSignal;
  /** Media that decodes to more than this is refused (media_unreadable); default 4 h. */
  maxDurationSec?: number;
}

function readHead(path: string): Buffer {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    throw new EngineError('media_unreadable', `cannot open media: ${(err as Error).message}`);
  }
  try {
    const head = Buffer.alloc(SNIFF_BYTES);
    const n = readSync(fd, head, 0, SNIFF_BYTES, 0);
    return head.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

function tooLong(maxSec: number): EngineError {
  return new EngineError('media_unreadable', `the media decodes to more than ${maxSec} s, the longest this server analyses (MAX_MEDIA_SEC)`);
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

async function* decodeInSandbox(path: string, demuxer: string, maxSec: number, signal?: AbortSignal): AsyncGenerator<Float32Array, void, undefined> {
  const child = startSandbox('decode', path, demuxer, maxSec);
  const { stderr, exited } = watchChild(child);
  const onAbort = (): void => {
    child.kill('SIGKILL');
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  let carry = Buffer.alloc(0);
  try {
    for await (const data of child.stdout as AsyncIterable<Buffer>) {
      const bytes = carry.length ? Buffer.concat([carry, data]) : data;
      const usable = bytes.length - (bytes.length % 4);
      carry = Buffer.from(bytes.subarray(usable));
      if (usable === 0) continue;
      // Copy into an aligned buffer: the pipe's chunks may start at any byte offset.
      const out = new Float32Array(usable / 4);
      new Uint8Array(out.buffer).set(bytes.subarray(0, usable));
      yield out;
    }
    const code = await exited;
    if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('aborted');
    if (code !== 0) throw new EngineError('media_unreadable', `the media could not be decoded: ${stderr() || `exit ${code}`}`);
  } finally {
    signal?.removeEventListener('abort', onAbort);
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

/** Streams the media at `path` as 16 kHz mono float chunks. Throws EngineError('media_unreadable'). */
export async function* decodeAudio(path: string, options: DecodeOptions = {}): AsyncGenerator<Float32Array, void, undefined> {
  const maxSec = options.maxDurationSec ?? DEFAULT_MAX_MEDIA_SEC;
  const maxSamples = maxSec * ANALYSIS_RATE;
  const head = readHead(path);
  if (head.length === 0) throw new EngineError('media_unreadable', 'the media file is empty');
  let source: Iterable<Float32Array> | AsyncIterable<Float32Array>;
  if (looksLikeWav(head)) {
    source = decodeWav(path);
  } else {
    const sniffed = sniffFormat(head);
    if (sniffed.family !== 'probe') throw new EngineError('media_unreadable', 'the file is no audio or video format this server decodes');
    source = decodeInSandbox(path, DEMUXERS[sniffed.format], maxSec, options.signal);
  }
  let total = 0;
  for await (const chunk of source) {
    if (options.signal?.aborted) throw options.signal.reason instanceof Error ? options.signal.reason : new Error('aborted');
    total += chunk.length;
    if (total > maxSamples) throw tooLong(maxSec);
    yield chunk;
  }
  if (total === 0) throw new EngineError('media_unreadable', 'the media has no audio samples');
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
