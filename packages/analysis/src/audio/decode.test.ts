// Every supported format decodes through the sandbox, and hostile files end in media_unreadable
// (or a correct decode within the limits) without reading anything but their own bytes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeAudioToArray } from './decode.ts';
import { pcm16WavHeader } from './wav.ts';
import { EngineError } from '../types.ts';
import { ENCODINGS, ffmpegEncode } from './encode.testkit.ts';

const dir = mkdtempSync(join(tmpdir(), 'rapport-decode-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, data: Buffer): string {
  const p = join(dir, name);
  writeFileSync(p, data);
  return p;
}

/** 16-bit mono WAV of a sine at `hz`. */
function tone(hz: number, seconds: number, rate = 16000): Buffer {
  const n = Math.round(seconds * rate);
  const buf = Buffer.alloc(44 + n * 2);
  pcm16WavHeader(n * 2, rate).copy(buf, 0);
  for (let i = 0; i < n; i++) buf.writeInt16LE(Math.round(12000 * Math.sin((2 * Math.PI * hz * i) / rate)), 44 + i * 2);
  return buf;
}

/** Dominant frequency by zero crossings. */
function hz(x: Float32Array): number {
  let crossings = 0;
  for (let i = 1; i < x.length; i++) if ((x[i - 1]! < 0) !== (x[i]! < 0)) crossings++;
  return (crossings / 2) * (16000 / x.length);
}

async function unreadable(path: string, pattern?: RegExp): Promise<void> {
  await assert.rejects(decodeAudioToArray(path), (err: unknown) => {
    assert.ok(err instanceof EngineError && err.code === 'media_unreadable', String(err));
    if (pattern) assert.match(err.message, pattern);
    return true;
  });
}

for (const [name, args] of Object.entries(ENCODINGS)) {
  test(`${name} decodes in the sandbox to 16 kHz mono of the right length and pitch`, async () => {
    const file = write(`t.${name}`, await ffmpegEncode(tone(440, 2, 44100), args));
    const x = await decodeAudioToArray(file);
    assert.ok(Math.abs(x.length / 16000 - 2) < 0.1, `${name}: ${x.length / 16000} s`);
    assert.ok(Math.abs(hz(x.subarray(4000, 28000)) - 440) < 10, `${name}: ${hz(x)} Hz`);
  });
}

test('an MP3 with an HLS playlist naming a local file decodes as MP3 only, never the file it names', async () => {
  // The secret: 6 s of 1 kHz on this machine. The upload: an ID3 tag, a playlist naming it, 1 s of 440 Hz MP3.
  const secret = write('secret.wav', tone(1000, 6));
  const mp3 = await ffmpegEncode(tone(440, 1), ENCODINGS.mp3);
  const playlist = Buffer.from(`#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\nfile://${secret}\n#EXTINF:10,\n${secret}\n#EXT-X-ENDLIST\n`);
  const id3 = Buffer.concat([Buffer.from('ID3\x04\x00\x00\x00\x00\x00\x00', 'latin1'), playlist]);
  const file = write('smuggle.mp3', Buffer.concat([id3, mp3]));
  const x = await decodeAudioToArray(file);
  assert.ok(x.length / 16000 < 1.5, `decoded ${x.length / 16000} s: more than the MP3 itself`);
  assert.ok(Math.abs(hz(x.subarray(2000, 14000)) - 440) < 15, `pitch ${hz(x)}`);
  // Bare playlists and concat scripts are no audio format at all.
  await unreadable(write('list.m3u8', playlist));
  await unreadable(write('concat.mp3', Buffer.from(`ffconcat version 1.0\nfile '${secret}'\n`)));
});

test('a file that decodes past the cap is refused (the samples count, not the header)', async () => {
  const file = write('ten.flac', await ffmpegEncode(tone(300, 10), ENCODINGS.flac));
  await assert.rejects(decodeAudioToArray(file, { maxDurationSec: 4 }), /more than 4 s/);
  const wav = write('ten.wav', tone(300, 10));
  await assert.rejects(decodeAudioToArray(wav, { maxDurationSec: 4 }), /more than 4 s/);
  assert.equal((await decodeAudioToArray(wav, { maxDurationSec: 11 })).length, 160000);
});

test('hostile corpus: truncated, lying, empty and non-audio files end in media_unreadable or a bounded decode', async () => {
  const flac = await ffmpegEncode(tone(440, 2), ENCODINGS.flac);
  const m4a = await ffmpegEncode(tone(440, 2), ENCODINGS.m4a);
  const ogg = await ffmpegEncode(tone(440, 2), ENCODINGS.opus);
  const webm = await ffmpegEncode(tone(440, 2), ENCODINGS.webm);
  const cases: [string, Buffer][] = [
    ['truncated.flac', flac.subarray(0, 60)],
    ['truncated.m4a', m4a.subarray(0, 200)],
    ['header-only.ogg', ogg.subarray(0, 80)],
    ['header-only.webm', webm.subarray(0, 60)],
    ['fLaC-then-text.flac', Buffer.concat([Buffer.from('fLaC'), Buffer.from('#EXTM3U\n/etc/passwd\n'.repeat(20))])],
    ['ftyp-only.m4a', Buffer.from('0000001866747970' + '4d344120' + '00000000' + '4d344120', 'hex')],
    ['zero-data.wav', pcm16WavHeader(0, 16000)],
    ['random.ogg', Buffer.concat([Buffer.from('OggS'), Buffer.from(Array.from({ length: 4000 }, (_, i) => (i * 7919) % 251))])],
    ['png.mp3', Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex')],
  ];
  for (const [name, data] of cases) {
    const started = Date.now();
    await unreadable(write(name, data));
    assert.ok(Date.now() - started < 20_000, `${name} took ${Date.now() - started} ms`);
  }
  // A WAV whose data chunk claims more than the file holds is truncated; one whose byte rate lies
  // (the billing finding) decodes by its samples, as the 1 s it holds.
  const longer = tone(440, 1);
  longer.writeUInt32LE(0xfffffff0, 40);
  await unreadable(write('huge-data.wav', longer), /truncated/);
  const lying = tone(440, 1);
  lying.writeUInt32LE(0x7fffffff, 28); // byte rate
  const x = await decodeAudioToArray(write('lying.wav', lying));
  assert.equal(x.length, 16000);
});
