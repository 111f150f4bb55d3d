import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeAudioToArray } from './decode.ts';
import { EngineError } from '../types.ts';

const dir = mkdtempSync(join(tmpdir(), 'rapport-wav-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

/** Builds a WAV of a 440 Hz sine (channel c gets amplitude 0.5 / (c + 1)). */
function wav(opts: { rate: number; channels: number; bits: number; float?: boolean; extensible?: boolean; seconds?: number }): Buffer {
  const { rate, channels, bits } = opts;
  const frames = Math.round(rate * (opts.seconds ?? 0.5));
  const bytes = bits / 8;
  const data = Buffer.alloc(frames * channels * bytes);
  let p = 0;
  for (let i = 0; i < frames; i++)
    for (let c = 0; c < channels; c++, p += bytes) {
      const v = (0.5 / (c + 1)) * Math.sin((2 * Math.PI * 440 * i) / rate);
      if (opts.float) {
        if (bits === 32) data.writeFloatLE(v, p);
        else data.writeDoubleLE(v, p);
      } else if (bits === 8) data[p] = Math.round(v * 127) + 128;
      else if (bits === 16) data.writeInt16LE(Math.round(v * 32767), p);
      else if (bits === 24) data.writeIntLE(Math.round(v * 8388607), p, 3);
      else data.writeInt32LE(Math.round(v * 2147483647), p);
    }
  const tag = opts.float ? 3 : 1;
  const fmt = Buffer.alloc(opts.extensible ? 40 : 16);
  fmt.writeUInt16LE(opts.extensible ? 0xfffe : tag, 0);
  fmt.writeUInt16LE(channels, 2);
  fmt.writeUInt32LE(rate, 4);
  fmt.writeUInt32LE(rate * channels * bytes, 8);
  fmt.writeUInt16LE(channels * bytes, 12);
  fmt.writeUInt16LE(bits, 14);
  if (opts.extensible) {
    fmt.writeUInt16LE(22, 16);
    fmt.writeUInt16LE(bits, 18);
    fmt.writeUInt32LE(0, 20);
    fmt.writeUInt16LE(tag, 24); // first two bytes of the sub-format GUID
  }
  const list = Buffer.from('LIST\x04\x00\x00\x00INFO', 'latin1'); // an extra chunk to skip
  const chunks = [Buffer.from('fmt ', 'latin1'), u32(fmt.length), fmt, list, Buffer.from('data', 'latin1'), u32(data.length), data];
  const body = Buffer.concat(chunks);
  return Buffer.concat([Buffer.from('RIFF', 'latin1'), u32(body.length + 4), Buffer.from('WAVE', 'latin1'), body]);
}

function u32(v: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(v);
  return b;
}

function write(name: string, data: Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, data);
  return path;
}

/** Frequency from zero crossings, and RMS, of the middle of the signal. */
function measure(x: Float32Array): { hz: number; rms: number } {
  const a = Math.floor(x.length * 0.2);
  const b = Math.floor(x.length * 0.8);
  let crossings = 0;
  let sq = 0;
  for (let i = a + 1; i < b; i++) {
    if (x[i - 1]! < 0 && x[i]! >= 0) crossings++;
    sq += x[i]! ** 2;
  }
  return { hz: (crossings * 16000) / (b - a), rms: Math.sqrt(sq / (b - a)) };
}

const cases = [
  { rate: 16000, channels: 1, bits: 16 },
  { rate: 8000, channels: 1, bits: 8 },
  { rate: 44100, channels: 2, bits: 24 },
  { rate: 48000, channels: 2, bits: 32 },
  { rate: 22050, channels: 1, bits: 32, float: true },
  { rate: 96000, channels: 3, bits: 64, float: true },
  { rate: 32000, channels: 2, bits: 16, extensible: true },
  { rate: 11025, channels: 1, bits: 32, float: true, extensible: true },
];

for (const c of cases) {
  test(`decodes WAV ${JSON.stringify(c)} to 16 kHz mono`, async () => {
    const x = await decodeAudioToArray(write(`t${c.rate}-${c.bits}-${c.channels}.wav`, wav(c)));
    assert.ok(Math.abs(x.length - 8000) <= 2, `length ${x.length}`);
    const { hz, rms } = measure(x);
    assert.ok(Math.abs(hz - 440) < 8, `frequency ${hz}`);
    // Mono mix: mean of the channel amplitudes 0.5, 0.25, 0.1667..., as an RMS of a sine.
    const amp = Array.from({ length: c.channels }, (_, k) => 0.5 / (k + 1)).reduce((s, v) => s + v, 0) / c.channels;
    assert.ok(Math.abs(rms - amp / Math.SQRT2) < 0.02 * amp + 0.005, `rms ${rms} vs ${amp / Math.SQRT2}`);
  });
}

async function rejects(path: string): Promise<void> {
  await assert.rejects(decodeAudioToArray(path), (err: unknown) => err instanceof EngineError && err.code === 'media_unreadable');
}

test('truncated, empty, header-only and non-audio inputs are media_unreadable', async () => {
  const full = wav({ rate: 16000, channels: 1, bits: 16 });
  await rejects(write('trunc.wav', full.subarray(0, full.length - 1000)));
  await rejects(write('empty.wav', Buffer.alloc(0)));
  await rejects(write('header.wav', full.subarray(0, 30)));
  const badFmt = Buffer.from(full);
  badFmt.writeUInt16LE(85, 20); // MP3-in-WAV format tag: not decoded natively
  await rejects(write('badfmt.wav', badFmt));
  await rejects(write('text.txt', Buffer.from('this is not audio at all\n'.repeat(50))));
  await rejects(join(dir, 'missing.wav'));
});
