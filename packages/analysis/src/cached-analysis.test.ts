import { test } from 'node:test';
import assert from 'node:assert/strict';
import { upgradeCachedAnalysis } from './cached-analysis.ts';
import { makeMedia, turn } from './behavior/fixtures.testkit.ts';
import type { MediaAnalysis } from './types.ts';

// Ben interrupts Ann; Ann backchannels inside Ben's turn. The behavior stage counts both.
const fixture = {
  durationSec: 20,
  turns: [turn(0, 0, 6), turn(1, 5, 12, { interrupts: true }), turn(0, 8, 8.5, { backchannel: true }), turn(0, 12.5, 18)],
};
const withMethod = (a: MediaAnalysis, diarization: string): MediaAnalysis => ({ ...a, method: { ...a.method, diarization } });

test('an audio-only analysis cached with zeros for unmeasured turn-taking reads back null', () => {
  const cached = withMethod(makeMedia(fixture), 'GMM-UBM supervector window clustering');
  assert.equal(cached.speakers[1]?.metrics.interruptionsMade, 1); // what an old engine stored (here: not zero, still not measurable)
  const up = upgradeCachedAnalysis(JSON.parse(JSON.stringify(cached)) as MediaAnalysis);
  for (const s of up.speakers) {
    assert.equal(s.metrics.interruptionsMade, null);
    assert.equal(s.metrics.interruptionsReceived, null);
    assert.equal(s.metrics.backchannels, null);
    assert.equal(s.metrics.overlapSec, null);
    // everything else is kept as measured
    assert.equal(s.metrics.turns, cached.speakers[s.index]?.metrics.turns);
    assert.equal(s.metrics.speechSec, cached.speakers[s.index]?.metrics.speechSec);
  }
  assert.deepEqual(upgradeCachedAnalysis(up), up, 'idempotent');
});

test('a transcript-guided analysis, or one the current engine wrote, comes back as it is', () => {
  const guided = withMethod(makeMedia(fixture), 'transcript-guided: one GMM-UBM speaker model per transcript name');
  assert.equal(upgradeCachedAnalysis(guided), guided);
  assert.equal(guided.speakers[1]?.metrics.interruptionsMade, 1);
  const current = upgradeCachedAnalysis(withMethod(makeMedia(fixture), 'GMM-UBM supervector window clustering'));
  assert.equal(upgradeCachedAnalysis(current), current);
});
