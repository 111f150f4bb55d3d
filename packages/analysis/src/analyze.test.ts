import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzeMedia } from './analyze.ts';
import { pcm16WavHeader } from './audio/wav.ts';
import { EngineError } from './types.ts';
import { synthConversation } from './speech/synthetic.ts';

const dir = mkdtempSync(join(tmpdir(), 'rapport-analyze-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

function wav16(samples: Float32Array, rate: number): Buffer {
  const data = Buffer.alloc(samples.length * 2);
  samples.forEach((v, i) => data.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(v * 32767))), i * 2));
  return Buffer.concat([pcm16WavHeader(data.length, rate), data]);
}

test('analyzeMedia: a WAV conversation end to end, with progress through the three stages', async () => {
  const { samples, rate } = synthConversation([{ f0: 105, formantScale: 1 }, { f0: 230, formantScale: 1.2 }], 40, { seed: 2, turnSec: 3, rate: 22050 });
  const path = join(dir, 'conv.wav');
  writeFileSync(path, wav16(samples, rate));
  const stages = new Set<string>();
  const a = await analyzeMedia({ path, onProgress: (stage) => stages.add(stage) });
  assert.deepEqual([...stages], ['detecting_speech', 'identifying_speakers', 'measuring_behavior']);
  assert.equal(a.speakers.length, 2);
  assert.ok(Math.abs(a.durationSec - 40) < 0.01);
  assert.ok(a.speakers.every((s) => s.voiceprint.length > 0 && s.metrics.speechSec > 5));
  assert.ok(Math.abs(a.speakers.reduce((s, x) => s + x.metrics.talkShare, 0) - 1) < 1e-6);
  assert.ok(a.method.realTimeFactor !== null && a.method.realTimeFactor > 0);
  // Survives JSON (the server stores it as JSON).
  assert.deepEqual(JSON.parse(JSON.stringify(a)), a);
});

test('analyzeMedia: corrupt input is media_unreadable, an aborted analysis stops', async () => {
  const bad = join(dir, 'bad.wav');
  writeFileSync(bad, Buffer.concat([Buffer.from('RIFF\x10\x00\x00\x00WAVEjunk', 'latin1'), Buffer.alloc(20)]));
  await assert.rejects(analyzeMedia({ path: bad }), (e: unknown) => e instanceof EngineError && e.code === 'media_unreadable');
  const { samples, rate } = synthConversation([{ f0: 120, formantScale: 1 }], 5, { seed: 1 });
  const ok = join(dir, 'ok.wav');
  writeFileSync(ok, wav16(samples, rate));
  const controller = new AbortController();
  controller.abort(new Error('stop'));
  await assert.rejects(analyzeMedia({ path: ok, signal: controller.signal }), /stop/);
});

test('firstSpeechOrder numbers speakers by their first segment, speakers without speech last', async () => {
  const { firstSpeechOrder } = await import('./speech/diarization/numbering.ts');
  const segs = [
    { speaker: 1, start: 0.2 },
    { speaker: 0, start: 0.9 },
    { speaker: 1, start: 2 },
    { speaker: 3, start: 0.5 },
  ];
  assert.deepEqual(firstSpeechOrder(segs, 5), [2, 0, 3, 1, 4]);
  assert.deepEqual(firstSpeechOrder([], 2), [0, 1]);
});
