import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { conversation, makeMedia } from '../packages/analysis/src/behavior/fixtures.testkit.ts';
import type { MediaAnalysis } from '../packages/analysis/src/types.ts';
import { calibrationTable, formatTable, pairFigures } from './confidence-calibration.ts';
import type { CalibrationInput } from './confidence-calibration.ts';

const recording = (seed: number, separation: number): MediaAnalysis => {
  const m = makeMedia(conversation(seed, 200, true));
  // Speakers from a transcript's names: from the voices alone none is ever shown as sure (SPEAKER_TRUST.fromVoices).
  return { ...m, method: { ...m.method, diarization: 'transcript-guided: one GMM-UBM speaker model per transcript name' }, speakers: m.speakers.map((s) => ({ ...s, separation })) };
};

// Two clean recordings (right speakers, well separated) and one mixed (wrong, badly separated).
const inputs: { name: string; input: CalibrationInput }[] = [
  { name: 'a.json', input: { analysis: recording(1, 0.99), speakerPurity: [0.97, 0.95] } },
  { name: 'b.json', input: { analysis: recording(2, 0.98), speakerPurity: [0.96, 0.93] } },
  { name: 'c.json', input: { analysis: recording(3, 0.55), speakerPurity: [0.6, 0.7] } },
];

test('every pair figure is banded by its confidence; the mixed recording is kept out of the sure bands', () => {
  const figures = pairFigures(inputs);
  assert.ok(figures.length >= 9, `figures ${figures.length}`);
  const t = calibrationTable(figures);
  assert.equal(t.rows.reduce((s, r) => s + r.figures, 0), figures.length, 'every figure is in one band');
  const wrong = figures.filter((f) => !f.right);
  assert.ok(wrong.length > 0 && wrong.every((f) => f.confidence < 0.2), 'the mixed speakers\' figures sit in the lowest band');
  assert.equal(t.rows[0]!.rightShare !== null && t.rows[0]!.rightShare < 1, true);
  assert.equal(t.shown.rightShare, 1);
  assert.equal(t.shown.met, true);
  assert.match(formatTable(t), /\| 0-20 % \| \d+ \| \d+ % \|/);
});

test('the script reads a folder of analyses and prints the table', () => {
  const dir = mkdtempSync(join(tmpdir(), 'calibration-'));
  for (const { name, input } of inputs) writeFileSync(join(dir, name), JSON.stringify(input));
  const out = execFileSync(process.execPath, [new URL('./confidence-calibration.ts', import.meta.url).pathname, '--analyses', dir], { encoding: 'utf8' });
  assert.match(out, /^3 recordings, \d+ pair figures/);
  assert.match(out, /\| 90-100 % \|/);
  assert.match(out, /criterion \(>= 80 %\) met/);
});
