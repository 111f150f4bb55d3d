// Format sniffing from the first bytes, and the native WAV header reader.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { looksLikeText, sniffFormat } from '@rapport/analysis';
import { wavDurationSec } from './media-probe.ts';
import { PNG, wavFile } from './files.fixtures.testkit.ts';

const b = (hex: string) => Buffer.from(hex.replace(/\s/g, ''), 'hex');

describe('sniffFormat', () => {
  const cases: [string, Buffer, ReturnType<typeof sniffFormat>][] = [
    ['WAV', wavFile(0.1).subarray(0, 64), { family: 'wav' }],
    ['FLAC', Buffer.from('fLaC\u0000\u0000\u0000\u0022', 'latin1'), { family: 'probe', format: 'flac' }],
    ['Ogg', Buffer.from('OggS\u0000\u0002', 'latin1'), { family: 'probe', format: 'ogg' }],
    ['ID3-tagged MP3', Buffer.from('ID3\u0004\u0000', 'latin1'), { family: 'probe', format: 'mp3' }],
    ['bare MP3 frame', b('fffb9064 00000000'), { family: 'probe', format: 'mp3' }],
    ['ADTS AAC', b('fff16040 449ffcde'), { family: 'probe', format: 'aac' }],
    ['MP4', Buffer.concat([b('00000020'), Buffer.from('ftypisom', 'latin1'), Buffer.alloc(8)]), { family: 'probe', format: 'mp4' }],
    ['M4A', Buffer.concat([b('00000018'), Buffer.from('ftypM4A ', 'latin1'), Buffer.alloc(8)]), { family: 'probe', format: 'm4a' }],
    ['MOV (ftyp qt)', Buffer.concat([b('00000014'), Buffer.from('ftypqt  ', 'latin1'), Buffer.alloc(8)]), { family: 'probe', format: 'mov' }],
    ['MOV (moov first)', Buffer.concat([b('00000100'), Buffer.from('moov', 'latin1'), Buffer.alloc(8)]), { family: 'probe', format: 'mov' }],
    ['WebM', Buffer.concat([b('1a45dfa3 9f4286 8101'), Buffer.from('B\u0082\u0084webm', 'latin1')]), { family: 'probe', format: 'webm' }],
    ['MKV', Buffer.concat([b('1a45dfa3 a34286 8101'), Buffer.from('B\u0082\u0088matroska', 'latin1')]), { family: 'probe', format: 'mkv' }],
    ['WebVTT text', Buffer.from('WEBVTT\n\n00:00.000 --> 00:01.000\nhi\n'), { family: 'text' }],
    ['UTF-8 text with a BOM and accents', Buffer.from('\uFEFF{"segments":[{"speaker":"Zoë"}]}'), { family: 'text' }],
    ['PNG', PNG, { family: 'unknown' }],
    ['0xFF then junk (bad bitrate index)', b('fffbf064 00000000'), { family: 'unknown' }],
    ['binary with NUL', b('00010203 04050607'), { family: 'unknown' }],
  ];
  for (const [name, head, expected] of cases) {
    it(name, () => assert.deepEqual(sniffFormat(head), expected));
  }

  it('treats a UTF-8 sequence cut by the sniffing window as text, and invalid UTF-8 as binary', () => {
    const text = Buffer.from('Speaker: ünïcödé 😀');
    assert.equal(looksLikeText(text.subarray(0, text.length - 2)), true);
    assert.equal(looksLikeText(b('48656c6c6f c328 776f726c64')), false);
  });
});

describe('wavDurationSec', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rapport-wav-'));
  const write = (name: string, data: Buffer) => {
    const p = path.join(dir, name);
    writeFileSync(p, data);
    return p;
  };

  it('reads the data size over the byte rate, skipping chunks before data', async () => {
    const wav = wavFile(1.5);
    const list = Buffer.concat([Buffer.from('LIST', 'latin1'), b('05000000'), Buffer.from('abcde\u0000', 'latin1')]); // odd size: padded
    const withList = Buffer.concat([wav.subarray(0, 36), list, wav.subarray(36)]);
    assert.equal(await wavDurationSec(write('list.wav', withList), withList.length), 1.5);
  });

  it('runs a streaming WAV (data size 0 or oversize) to the end of the file', async () => {
    const wav = Buffer.from(wavFile(2));
    wav.writeUInt32LE(0xffffffff, 40);
    assert.equal(await wavDurationSec(write('stream.wav', wav), wav.length), 2);
    wav.writeUInt32LE(0, 40);
    assert.equal(await wavDurationSec(write('zero.wav', wav), wav.length), 2);
  });

  it('refuses a header without format or data, or with a zero sample rate', async () => {
    const wav = wavFile(0.5);
    await assert.rejects(wavDurationSec(write('cut.wav', wav.subarray(0, 30)), 30), /UNSUPPORTED|format|data/i);
    const zero = Buffer.from(wav);
    zero.writeUInt32LE(0, 24);
    await assert.rejects(wavDurationSec(write('zero-rate.wav', zero), zero.length));
  });

  it('reads the duration from the sample rate, not the byte rate a crafted header lies with', async () => {
    const wav = wavFile(2);
    wav.writeUInt32LE(0x7fffffff, 28);
    assert.equal(await wavDurationSec(write('lying-rate.wav', wav), wav.length), 2);
    rmSync(dir, { recursive: true, force: true });
  });
});
