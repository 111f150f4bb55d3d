// Issue 40 item 5: combinations no conversation can produce ("1 turn of 0:27.0 with 0:13.9 of
// speech", "0.0 pauses a minute" from a reader who pauses) must never come out of the engine.
// Many random but valid conversations (speakers taking turns, pauses, overlaps, backchannels)
// go through the engine's own turn grouping and metrics, and every figure is checked against
// the others and against a direct count from the segments.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { aggregateMetrics, computeSpeakerMetrics } from './speaker-metrics.ts';
import { seededRandom, totalLength, unionIntervals } from './stats.ts';
import { groupTurns, TURN_MERGE_GAP_SEC } from '../speech/turns.ts';
import type { SpeakerMetrics, SpeechSegment, Turn } from '../types.ts';

const EPS = 1e-6;

/** A conversation of 1-4 speakers: runs of 1-4 segments with pauses, some overlapping the previous speaker, some short replies. */
function conversation(random: () => number): { durationSec: number; segments: SpeechSegment[] } {
  const speakers = 1 + Math.floor(random() * 4);
  const segments: SpeechSegment[] = [];
  let t = random() * 2;
  const runs = 1 + Math.floor(random() * 12);
  let previous = -1;
  for (let r = 0; r < runs; r++) {
    let speaker = Math.floor(random() * speakers);
    if (speakers > 1 && speaker === previous) speaker = (speaker + 1) % speakers;
    previous = speaker;
    // A gap before the run, or an overlap into the previous one.
    t = Math.max(0, t + (random() < 0.25 ? -random() * 1.5 : random() * 4));
    const pieces = 1 + Math.floor(random() * 4);
    for (let p = 0; p < pieces; p++) {
      const length = random() < 0.2 ? 0.2 + random() * 0.8 : 0.5 + random() * 8;
      segments.push({ speaker, start: round3(t), end: round3(t + length) });
      // A pause inside the run: mostly short, sometimes longer than a turn may hold.
      t += length + (random() < 0.85 ? 0.1 + random() * 1.5 : 3 + random() * 3);
    }
  }
  const durationSec = Math.max(...segments.map((s) => s.end)) + random() * 3;
  return { durationSec, segments: segments.sort((a, b) => a.start - b.start) };
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

function asTurns(segments: readonly SpeechSegment[]): Turn[] {
  return groupTurns(segments).map((s) => ({ ...s, pitchSt: null, loudnessDb: -30, rateSylPerSec: null, initialPitchSt: null, finalPitchSt: null, initialLoudnessDb: -30, finalLoudnessDb: -30 }));
}

/** Pauses as a person would count them from the segments: silences between a speaker's own stretches that lie inside one of their turns. */
function pausesByHand(segments: readonly SpeechSegment[], turns: readonly Turn[], speaker: number): number[] {
  const own = unionIntervals(segments.filter((s) => s.speaker === speaker));
  const out: number[] = [];
  for (let k = 1; k < own.length; k++) {
    const from = own[k - 1]!.end;
    const to = own[k]!.start;
    if (turns.some((t) => t.speaker === speaker && !t.backchannel && t.start <= from && t.end >= to)) out.push(to - from);
  }
  return out;
}

function checkSpeaker(m: SpeakerMetrics, i: number, c: { durationSec: number; segments: SpeechSegment[] }, turns: Turn[], why: string): void {
  const own = c.segments.filter((s) => s.speaker === i);
  const main = turns.filter((t) => t.speaker === i && !t.backchannel);
  assert.ok(Math.abs(m.speechSec - totalLength(unionIntervals(own))) < EPS, `${why}: speech is the union of the speaker's segments`);
  assert.ok(m.speechSec <= c.durationSec + EPS, `${why}: no more speech than recording`);
  assert.equal(m.turns, main.length, `${why}: turns`);
  if (m.turns === 0) {
    assert.equal(m.medianTurnSec, null, `${why}: no turn, no median turn`);
    assert.equal(m.longestTurnSec, null, `${why}: no turn, no longest turn`);
  } else {
    assert.ok(m.medianTurnSec !== null && m.longestTurnSec !== null, `${why}: turns have lengths`);
    const shortest = Math.min(...main.map((t) => t.end - t.start));
    assert.ok(m.medianTurnSec >= shortest - EPS && m.medianTurnSec <= m.longestTurnSec + EPS, `${why}: median turn between the shortest and the longest`);
    if (m.turns === 1) assert.ok(Math.abs(m.medianTurnSec - m.longestTurnSec) < EPS, `${why}: one turn is its own median`);
  }
  const pauses = pausesByHand(c.segments, turns, i);
  if (m.speechSec >= 1) {
    assert.ok(m.pausesPerMin !== null, `${why}: a rate over a second of speech is measured`);
    const count = (m.pausesPerMin * m.speechSec) / 60;
    assert.ok(Math.abs(count - Math.round(count)) < 1e-6, `${why}: pauses per minute × minutes of speech is a whole count (${count})`);
    assert.equal(Math.round(count), pauses.length, `${why}: every silence inside the speaker's turns is a pause`);
    // Turn time is speech plus the pauses inside turns, each at most TURN_MERGE_GAP_SEC: a turn
    // longer than that ("1 turn of 0:27.0 with 0:13.9 of speech") is impossible.
    const turnTime = main.reduce((s, t) => s + t.end - t.start, 0);
    assert.ok(turnTime <= m.speechSec + pauses.reduce((s, p) => s + p, 0) + EPS, `${why}: turn time ${turnTime} ≤ speech ${m.speechSec} + pauses`);
    if (m.longestTurnSec !== null) assert.ok(m.longestTurnSec <= m.speechSec + Math.round(count) * TURN_MERGE_GAP_SEC + EPS, `${why}: longest turn ≤ speech + pauses × ${TURN_MERGE_GAP_SEC} s`);
  } else {
    assert.equal(m.pausesPerMin, null, `${why}: no rate from under a second`);
  }
  assert.equal(m.medianPauseSec === null, pauses.length === 0, `${why}: a median pause exactly when there are pauses`);
  if (m.medianPauseSec !== null) assert.ok(m.medianPauseSec > 0 && m.medianPauseSec <= TURN_MERGE_GAP_SEC + EPS && m.medianPauseSec >= Math.min(...pauses) - EPS && m.medianPauseSec <= Math.max(...pauses) + EPS, `${why}: median pause between the shortest and longest pause`);
  if (m.interruptionsMade !== null) assert.ok(m.interruptionsMade <= m.turns, `${why}: no more interruptions than turns`);
  if (m.overlapSec !== null) assert.ok(m.overlapSec <= m.speechSec + EPS, `${why}: overlap is part of speech`);
  if (m.backchannels !== null) assert.ok(m.backchannels + m.turns <= own.length, `${why}: every turn and backchannel holds a segment`);
}

test('random conversations: every figure agrees with the others and with the segments (issue 40 item 5)', () => {
  const random = seededRandom(40);
  for (let n = 0; n < 400; n++) {
    const c = conversation(random);
    const turns = asTurns(c.segments);
    const metrics = computeSpeakerMetrics({ durationSec: c.durationSec, segments: c.segments, turns, acoustic: [], transcript: null, labels: [] });
    const why = `conversation ${n} ${JSON.stringify(c.segments)}`;
    const total = metrics.reduce((s, m) => s + m.talkShare, 0);
    assert.ok(Math.abs(total - 1) < 1e-9, `${why}: talk shares add up to 100 %`);
    metrics.forEach((m, i) => checkSpeaker(m, i, c, turns, `${why} speaker ${i}`));
  }
});

test('a reader who pauses is shown pausing: one speaker, pauses under the turn limit', () => {
  const random = seededRandom(7);
  for (let n = 0; n < 100; n++) {
    const segments: SpeechSegment[] = [];
    let t = 0;
    while (t < 33) {
      const length = 1 + random() * 6;
      segments.push({ speaker: 0, start: round3(t), end: round3(t + length) });
      t += length + 0.3 + random() * 1.2;
    }
    const turns = asTurns(segments);
    const [m] = computeSpeakerMetrics({ durationSec: t, segments, turns, acoustic: [], transcript: null, labels: [] });
    assert.ok(m);
    assert.equal(m.turns, 1, 'one turn: nobody else speaks and no pause exceeds the limit');
    assert.ok(Math.abs((m.pausesPerMin ?? 0) * (m.speechSec / 60) - (segments.length - 1)) < 1e-6, 'every silence is a pause');
    assert.ok(m.longestTurnSec !== null && m.longestTurnSec > m.speechSec, 'the turn holds the speech and its pauses');
  }
});

test('an entity over many media: summed counts, rates that are total count over total speech, medians within the media\'s', () => {
  const random = seededRandom(41);
  for (let n = 0; n < 100; n++) {
    const items = Array.from({ length: 1 + Math.floor(random() * 4) }, () => {
      const c = conversation(random);
      return { metrics: computeSpeakerMetrics({ durationSec: c.durationSec, segments: c.segments, turns: asTurns(c.segments), acoustic: [], transcript: null, labels: [] })[0]! };
    });
    const a = aggregateMetrics(items);
    const ms = items.map((i) => i.metrics);
    assert.equal(a.turns, ms.reduce((s, m) => s + m.turns, 0));
    const rated = ms.filter((m) => m.pausesPerMin !== null);
    if (rated.length) {
      const pauses = rated.reduce((s, m) => s + ((m.pausesPerMin ?? 0) * m.speechSec) / 60, 0);
      const speech = rated.reduce((s, m) => s + m.speechSec, 0);
      assert.ok(Math.abs((a.pausesPerMin ?? NaN) - pauses / (speech / 60)) < 1e-6, 'pauses per minute = all pauses over all speech');
    }
    const medians = ms.map((m) => m.medianTurnSec).filter((v): v is number => v !== null);
    if (medians.length) {
      assert.ok(a.medianTurnSec !== null && a.longestTurnSec !== null);
      assert.ok(a.medianTurnSec >= Math.min(...medians) - EPS && a.medianTurnSec <= Math.max(...medians) + EPS && a.medianTurnSec <= a.longestTurnSec + EPS);
    }
  }
});
