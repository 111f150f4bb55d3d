// Native WAV decoding: RIFF/WAVE with PCM integer (8/16/24/32-bit), IEEE float (32/64-bit) and
// WAVE_FORMAT_EXTENSIBLE wrappers of both. The header is parsed from the first bytes; the data
// chunk is then read in bounded blocks so that hours of audio never sit in memory at once.
import { openSync, readSync, closeSync, fstatSync } from 'node:fs';
import { EngineError } from '../types.ts';

const FORMAT_PCM = 1;
const FORMAT_FLOAT = 3;
const FORMAT_EXTENSIBLE = 0xfffe;

export interface WavFormat {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  /** 'int' for PCM integer samples, 'float' for IEEE float. */
  sampleType: 'int' | 'float';
  /** Byte offset of the first sample and byte length of the sample data actually present. */
  dataOffset: number;
  dataBytes: number;
}

/** True when the buffer starts like a RIFF/WAVE file (so that the native decoder applies). */
export function looksLikeWav(head: Uint8Array): boolean {
  if (head.length < 12) return false;
  const tag = (o: number): string => String.fromCharCode(head[o]!, head[o + 1]!, head[o + 2]!, head[o + 3]!);
  return tag(0) === 'RIFF' && tag(8) === 'WAVE';
}

/**
 * The 44-byte header of a 16-bit PCM WAV whose sample data (`dataBytes`) follows it: what the
 * tests, the bench and the eval write their generated or joined audio with.
 */
export function pcm16WavHeader(dataBytes: number, sampleRate: number, channels = 1): Buffer {
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'latin1');
  h.writeUInt32LE(36 + dataBytes, 4);
  h.write('WAVEfmt ', 8, 'latin1');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(FORMAT_PCM, 20);
  h.writeUInt16LE(channels, 22);
  h.writeUInt32LE(sampleRate, 24);
  h.writeUInt32LE(sampleRate * channels * 2, 28); // byte rate
  h.writeUInt16LE(channels * 2, 32); // block align
  h.writeUInt16LE(16, 34);
  h.write('data', 36, 'latin1');
  h.writeUInt32LE(dataBytes, 40);
  return h;
}

function unreadable(why: string): EngineError {
  return new EngineError('media_unreadable', `WAV: ${why}`);
}

/**
 * Walks the RIFF chunks up to `data`. `fileSize` lets us tell a truncated file (declared data
 * longer than the file) from the streaming convention of a 0 or 0xFFFFFFFF size (read to EOF).
 */
export function parseWavHeader(head: Buffer, fileSize: number): WavFormat {
  if (!looksLikeWav(head)) throw unreadable('not a RIFF/WAVE file');
  let offset = 12;
  let fmt: Omit<WavFormat, 'dataOffset' | 'dataBytes'> | null = null;
  while (offset + 8 <= head.length) {
    const id = head.toString('latin1', offset, offset + 4);
    const size = head.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ') {
      if (size < 16 || body + 16 > head.length) throw unreadable('fmt chunk too short');
      let formatTag = head.readUInt16LE(body);
      const channels = head.readUInt16LE(body + 2);
      const sampleRate = head.readUInt32LE(body + 4);
      const bitsPerSample = head.readUInt16LE(body + 14);
      if (formatTag === FORMAT_EXTENSIBLE) {
        if (size < 40 || body + 26 > head.length) throw unreadable('extensible fmt chunk too short');
        // The first two bytes of the sub-format GUID carry the real format tag.
        formatTag = head.readUInt16LE(body + 24);
      }
      let sampleType: 'int' | 'float';
      if (formatTag === FORMAT_PCM && [8, 16, 24, 32].includes(bitsPerSample)) sampleType = 'int';
      else if (formatTag === FORMAT_FLOAT && (bitsPerSample === 32 || bitsPerSample === 64)) sampleType = 'float';
      else throw unreadable(`unsupported format tag ${formatTag} with ${bitsPerSample} bits`);
      if (channels < 1 || sampleRate < 1000 || sampleRate > 768000) throw unreadable('implausible channel count or sample rate');
      fmt = { sampleRate, channels, bitsPerSample, sampleType };
    } else if (id === 'data') {
      if (!fmt) throw unreadable('data chunk before fmt chunk');
      const available = fileSize - body;
      let dataBytes = size;
      if (size === 0 || size === 0xffffffff) dataBytes = available;
      else if (size > available) throw unreadable(`truncated: data chunk declares ${size} bytes, ${available} present`);
      const frameBytes = (fmt.bitsPerSample / 8) * fmt.channels;
      dataBytes -= dataBytes % frameBytes;
      return { ...fmt, dataOffset: body, dataBytes };
    }
    offset = body + size + (size % 2); // chunks are word-aligned
  }
  throw unreadable(fmt ? 'no data chunk in the header' : 'no fmt chunk');
}

/** Converts interleaved sample bytes to mono floats in [-1, 1] by averaging the channels. */
export function bytesToMono(bytes: Buffer, format: WavFormat): Float32Array {
  const { channels, bitsPerSample, sampleType } = format;
  const bytesPerSample = bitsPerSample / 8;
  const frames = Math.floor(bytes.length / (bytesPerSample * channels));
  const out = new Float32Array(frames);
  const gain = 1 / channels;
  let p = 0;
  for (let i = 0; i < frames; i++) {
    let sum = 0;
    for (let c = 0; c < channels; c++, p += bytesPerSample) {
      let v: number;
      if (sampleType === 'float') v = bitsPerSample === 32 ? bytes.readFloatLE(p) : bytes.readDoubleLE(p);
      else if (bitsPerSample === 16) v = ((bytes[p]! | (bytes[p + 1]! << 8)) << 16 >> 16) / 32768;
      else if (bitsPerSample === 8) v = (bytes[p]! - 128) / 128; // 8-bit WAV is unsigned
      else if (bitsPerSample === 24) v = bytes.readIntLE(p, 3) / 8388608;
      else v = bytes.readInt32LE(p) / 2147483648;
      sum += Number.isFinite(v) ? v : 0;
    }
    out[i] = sum * gain;
  }
  return out;
}

/** Reads a WAV file's header, then yields mono chunks of about `chunkFrames` frames each. */
export function* readWavMono(path: string, chunkFrames = 65536): Generator<Float32Array, void, undefined> {
  const fd = openSync(path, 'r');
  try {
    const fileSize = fstatSync(fd).size;
    const head = Buffer.alloc(Math.min(fileSize, 1 << 16));
    readSync(fd, head, 0, head.length, 0);
    const format = parseWavHeader(head, fileSize);
    const frameBytes = (format.bitsPerSample / 8) * format.channels;
    const block = Buffer.alloc(chunkFrames * frameBytes);
    let done = 0;
    while (done < format.dataBytes) {
      const want = Math.min(block.length, format.dataBytes - done);
      const got = readSync(fd, block, 0, want, format.dataOffset + done);
      if (got <= 0) throw unreadable('file ended inside the data chunk');
      const whole = got - (got % frameBytes);
      done += whole;
      if (whole === 0) break;
      yield bytesToMono(block.subarray(0, whole), format);
    }
  } finally {
    closeSync(fd);
  }
}

/** Header only: what the native decoder would read (sample rate first of all). */
export function readWavFormat(path: string): WavFormat {
  const fd = openSync(path, 'r');
  try {
    const fileSize = fstatSync(fd).size;
    const head = Buffer.alloc(Math.min(fileSize, 1 << 16));
    readSync(fd, head, 0, head.length, 0);
    return parseWavHeader(head, fileSize);
  } finally {
    closeSync(fd);
  }
}
