// One way to read names, times and sizes in every client (issue 33 items 5 and 6): the CLI and
// the dashboard import these, so "3:03.8" and "MiB" read the same in both.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatBytes, formatSeconds, recordingName, speakerName } from './display.ts';

test('a speaker is its label, else "Speaker N" from 1 (decisions §17)', () => {
  assert.equal(speakerName(0), 'Speaker 1');
  assert.equal(speakerName(2, null), 'Speaker 3');
  assert.equal(speakerName(0, 'Ada'), 'Ada');
});

test('times read m:ss.s (h:mm:ss.s past an hour), the same in the CLI and the dashboard', () => {
  assert.equal(formatSeconds(183.8), '3:03.8');
  assert.equal(formatSeconds(0.04), '0:00.0');
  assert.equal(formatSeconds(59.96), '1:00.0');
  assert.equal(formatSeconds(3723.25), '1:02:03.3');
  assert.equal(formatSeconds(null), '–');
});

test('sizes in binary units named as such', () => {
  assert.equal(formatBytes(512), '512 B');
  assert.equal(formatBytes(1536), '1.5 KiB');
  assert.equal(formatBytes(5 * 1024 * 1024), '5.0 MiB');
  assert.equal(formatBytes(3 * 1024 ** 3), '3.0 GiB');
});

test('two recordings of one filename are told apart by duration and upload time (issue 40 item 7)', () => {
  const a = recordingName({ label: null, filename: 'conversation.wav', durationSec: 62.3, createdAt: '2026-12-01T09:15:00.000Z' });
  const b = recordingName({ label: null, filename: 'conversation.wav', durationSec: 62.3, createdAt: '2026-12-02T10:40:00.000Z' });
  assert.equal(a, 'conversation.wav · 1:02.3 · 2026-12-01 09:15 UTC');
  assert.notEqual(a, b);
  assert.equal(recordingName({ label: 'Standup', filename: 'conversation.wav', durationSec: null, createdAt: '2026-12-01T09:15:00.000Z' }), 'Standup · – · 2026-12-01 09:15 UTC');
});
