import { test } from 'node:test';
import assert from 'node:assert/strict';
import { meanSummary, seedPhases, seedTable, type SetSummary } from './seed-table.ts';

const summary = (der: number, count: number, f1: number | null): SetSummary => ({
  files: 12,
  der_collar_025: der,
  missed_025: 0,
  false_alarm_025: 0,
  confusion_025: der,
  der_collar_0: der * 2,
  missed_0: 0,
  false_alarm_0: 0,
  confusion_0: der * 2,
  speaker_count_exact: count,
  talk_share_error_pp: der * 100,
  identity_threshold: 0.71,
  identity_precision: f1,
  identity_recall: f1,
  identity_f1: f1,
  selector_accuracy: 1,
  real_time_factor: 0.005,
  speed_x_real_time: 200,
});

test('the mean is taken field by field, and a figure missing from one run is missing from the mean', () => {
  const m = meanSummary([summary(0.02, 1, 0.9), summary(0.06, 0.5, 0.8)]);
  assert.ok(Math.abs(m.der_collar_025 - 0.04) < 1e-12);
  assert.equal(m.speaker_count_exact, 0.75);
  assert.ok(Math.abs(m.identity_f1! - 0.85) < 1e-12);
  assert.equal(meanSummary([summary(0.02, 1, 0.9), summary(0.06, 0.5, null)]).identity_f1, null);
});

test('the table has a row per seed, the mean and the range', () => {
  const table = seedTable([
    { phase: 0.25, summary: summary(0.02, 1, 0.9) },
    { phase: 0.75, summary: summary(0.06, 0.5, 0.8) },
  ]).split('\n');
  assert.equal(table.length, 6);
  assert.match(table[2]!, /^\| 0\.25 \| 2\.0 \| 4\.0 \| 100 \| 2\.00 \| 0\.900 \| 100\.0 \| 200 \|$/);
  assert.match(table[4]!, /^\| \*\*mean\*\* \| \*\*4\.0\*\* /);
  assert.match(table[5]!, /^\| range \| 2\.0–6\.0 \| 4\.0–12\.0 \| 50–100 \| 2\.00–6\.00 \| 0\.800–0\.900 \|/);
});

test('seed phases are distinct draws: within (0, 1) for one seeding per run, within (0, 1/2) for two', () => {
  assert.deepEqual(seedPhases(3, 1), [0.25, 0.5, 0.75]);
  assert.deepEqual(seedPhases(3, 2), [0.125, 0.25, 0.375]);
});
