import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeTranscript, NO_AUDIO_MEASURES } from './transcript-analysis.ts';
import type { Transcript } from './types.ts';

// Ana speaks 0–4 and 9–12, Ben 3.5–8 (0.5 s over Ana's end) and a short "mhm" 10–10.4 inside
// Ana's second turn; "ana" in lower case is the same person.
const cues: Transcript = {
  format: 'webvtt',
  cues: [
    { speaker: 'Ana', start: 0, end: 4, text: 'Hello there, how are you doing today?' },
    { speaker: 'Ben', start: 3.5, end: 8, text: 'I am fine, thank you. We had a long week.' },
    { speaker: 'ana', start: 9, end: 12, text: 'Maybe we could talk about it, I think.' },
    { speaker: 'Ben', start: 10, end: 10.4, text: 'mhm' },
  ],
};

test('analyzeTranscript: speakers by name, speech time, turns, gaps and overlaps from the cue times', () => {
  const a = analyzeTranscript(cues);
  assert.deepEqual(a.speakers.map((s) => s.label), ['Ana', 'Ben']);
  assert.equal(a.durationSec, 12);
  const [ana, ben] = a.speakers.map((s) => s.metrics);
  assert.ok(ana && ben);
  assert.equal(a.speakers[0]!.speechSec, 7);
  assert.equal(a.speakers[1]!.speechSec, 4.9);
  assert.equal(ana.speechSec, 7);
  assert.ok(Math.abs(ana.talkShare - 7 / 11.9) < 1e-9);
  // Ana 2 turns, Ben 1 (the "mhm" inside Ana's speech is a backchannel).
  assert.equal(ana.turns, 2);
  assert.equal(ben.turns, 1);
  assert.equal(ben.backchannels, 1);
  // Ben took the floor 0.5 s before Ana stopped: an interruption, and 0.5 s + 0.4 s overlapped.
  assert.equal(ben.interruptionsMade, 1);
  assert.equal(ana.interruptionsReceived, 1);
  assert.ok(Math.abs((ben.overlapSec ?? 0) - 0.9) < 1e-9);
  assert.ok(Math.abs((ben.medianGapBeforeTurnSec ?? 0) - -0.5) < 1e-9);
  assert.ok(Math.abs((ana.medianGapBeforeTurnSec ?? 0) - 1) < 1e-9);
  // The language measures from the text.
  assert.equal(ana.language?.words, 15);
  assert.equal(ana.language?.lexicon, 'en');
  assert.ok((ana.language?.questionRate ?? 0) > 0);
  assert.equal(a.method.overlapMeasured, true);
  assert.match(a.method.diarization, /cues only/);
  assert.deepEqual(JSON.parse(JSON.stringify(a)), a);
});

test('analyzeTranscript: pitch, loudness and syllable rates are not measured, for the reason "no audio"; no voiceprint', () => {
  const a = analyzeTranscript(cues);
  assert.deepEqual(a.method.notMeasured, { measures: [...NO_AUDIO_MEASURES], reason: 'no audio' });
  for (const s of a.speakers) {
    assert.deepEqual(s.voiceprint, []);
    for (const key of NO_AUDIO_MEASURES) assert.equal(s.metrics[key], null, key);
  }
  assert.ok(a.turns.every((t) => t.pitchSt === null && t.loudnessDb === null && t.rateSylPerSec === null));
});

test('analyzeTranscript: cues that never overlap leave interruptions and overlap not measured, not zero', () => {
  const a = analyzeTranscript({ format: 'srt', cues: [{ speaker: 'A', start: 0, end: 2, text: 'one' }, { speaker: 'B', start: 2.5, end: 4, text: 'two' }] });
  assert.equal(a.method.overlapMeasured, false);
  assert.equal(a.speakers[1]!.metrics.interruptionsMade, null);
  assert.equal(a.speakers[1]!.metrics.overlapSec, null);
  assert.equal(a.speakers[1]!.metrics.medianGapBeforeTurnSec, 0.5);
});

test('analyzeTranscript: one cue of 300,000 words (within the upload cap) is measured, not a stack overflow', () => {
  // 60,000 times five words, about 1.4 MB of text: every word list and rate is a fifth.
  const text = Array.from({ length: 60_000 }, () => 'I think we should go.').join(' ');
  const a = analyzeTranscript({ format: 'webvtt', cues: [{ speaker: 'Ana', start: 0, end: 7200, text }] });
  const language = a.speakers[0]?.metrics.language;
  assert.ok(language);
  assert.equal(language.words, 300_000);
  assert.equal(language.wordsPerMinute, 300_000 / 120);
  assert.equal(language.firstPersonSingularRate, 20);
  assert.equal(language.firstPersonPluralRate, 20);
  assert.equal(language.questionRate, 0);
  assert.ok(language.sentiment !== null && Number.isFinite(language.sentiment));
  assert.equal(a.speakers[0]!.speechSec, 7200);
  assert.equal(a.speakers[0]!.metrics.turns, 1);
});
