import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveSelector } from './selectors.ts';
import type { Selector, SelectorContext } from './selectors.ts';
import { acousticFor, makeMedia, turn } from '../behavior/fixtures.testkit.ts';
import type { MediaAnalysis, Transcript } from '../types.ts';

// Ann (speaker 0, high voice, asks questions), Bob (1, low voice, talks the most), and a third
// speaker linked to the entity "Carla Gómez" tagged "sales rep" (2, talks the least).
const turns = [turn(0, 0, 10), turn(1, 10.3, 30), turn(0, 30.3, 40), turn(1, 40.3, 60.3), turn(2, 61, 71)];
const transcript: Transcript = {
  format: 'json',
  cues: [
    { speaker: 'Ann', start: 0, end: 10, text: 'So what brings you here? How did you start? Why now?' },
    { speaker: 'Bob', start: 10.3, end: 30, text: 'I started ten years ago in a small shop and it grew from there.' },
    { speaker: 'Ann', start: 30.3, end: 40, text: 'And what would you change?' },
    { speaker: 'Bob', start: 40.3, end: 60.3, text: 'Not much. The people made it work and I would keep them.' },
    { speaker: null, start: 61, end: 71, text: 'We can offer a discount on the annual plan.' },
  ],
};
const acoustic = [acousticFor(0, { pitchMedianSt: 40 }), acousticFor(1, { pitchMedianSt: 28 }), acousticFor(2, { pitchMedianSt: 34 })];
const media = makeMedia({ durationSec: 80, turns, acoustic, transcript });
const noTranscript = makeMedia({ durationSec: 80, turns, acoustic });
const empty: MediaAnalysis = { ...makeMedia({ durationSec: 10, turns: [] }), speakers: [], segments: [] };
const ctx: SelectorContext = {
  speakerEntityIds: ['ent_ann', 'ent_bob', 'ent_carla'],
  entities: {
    ent_ann: { label: 'Ann', tags: [] },
    ent_bob: { label: null, tags: ['customer'] },
    ent_carla: { label: 'Carla Gómez', tags: ['sales rep'] },
  },
};

function pick(m: MediaAnalysis, selector: Selector): number | string {
  const r = resolveSelector(m, selector, ctx);
  return r.ok ? (r.fellBack ? `fallback:${r.speakerIndex}` : r.speakerIndex) : `miss:${r.reason}`;
}
const missed = (v: number | string) => typeof v === 'string' && v.startsWith('miss:');

test('fixture sanity: labels from the transcript, Bob dominant', () => {
  assert.deepEqual(media.speakers.map((s) => s.label), ['Ann', 'Bob', null]);
  assert.ok((media.speakers[1]?.speechSec ?? 0) > (media.speakers[0]?.speechSec ?? 0));
});

test('dominant: most speech; a miss on a media without speech, even with the fallback', () => {
  assert.equal(pick(media, { strategy: 'dominant' }), 1);
  assert.ok(missed(pick(empty, { strategy: 'dominant' })));
  assert.ok(missed(pick(empty, { strategy: 'dominant', on_miss: 'fallback_dominant' })));
});

test('dominant ties go to the lower index', () => {
  const tie = makeMedia({ durationSec: 10, turns: [turn(0, 0, 3), turn(1, 3.5, 6.5)] });
  assert.equal(pick(tie, { strategy: 'dominant' }), 0);
});

test('timerange: most speech inside the range; open ends; misses', () => {
  assert.equal(pick(media, { strategy: 'timerange', timerange: { start_seconds: 60, end_seconds: null } }), 2);
  assert.equal(pick(media, { strategy: 'timerange', timerange: { end_seconds: 5 } }), 0);
  assert.equal(pick(media, { strategy: 'timerange', timerange: { start_seconds: 5, end_seconds: 12 } }), 0);
  assert.equal(pick(media, { strategy: 'timerange', timerange: { start_seconds: 8, end_seconds: 14 } }), 1);
  assert.ok(missed(pick(media, { strategy: 'timerange', timerange: { start_seconds: 72, end_seconds: 80 } })));
  assert.equal(pick(media, { strategy: 'timerange', on_miss: 'fallback_dominant', timerange: { start_seconds: 72, end_seconds: 80 } }), 'fallback:1');
  assert.ok(missed(pick(media, { strategy: 'timerange', timerange: { start_seconds: 20, end_seconds: 10 } })));
  assert.ok(missed(pick(media, { strategy: 'timerange', timerange: null })));
});

test('entity_id: the speaker linked to the entity; a miss when it does not speak here', () => {
  assert.equal(pick(media, { strategy: 'entity_id', entity_id: 'ent_carla' }), 2);
  assert.ok(missed(pick(media, { strategy: 'entity_id', entity_id: 'ent_zed' })));
  assert.equal(pick(media, { strategy: 'entity_id', entity_id: 'ent_zed', on_miss: 'fallback_dominant' }), 'fallback:1');
  assert.ok(missed(pick(media, { strategy: 'entity_id', entity_id: null })));
});

test('speaker_index: that speaker; a miss when not below the count', () => {
  assert.equal(pick(media, { strategy: 'speaker_index', speaker_index: 2 }), 2);
  assert.ok(missed(pick(media, { strategy: 'speaker_index', speaker_index: 3 })));
  assert.equal(pick(media, { strategy: 'speaker_index', speaker_index: 3, on_miss: 'fallback_dominant' }), 'fallback:1');
  assert.ok(missed(pick(media, { strategy: 'speaker_index', speaker_index: null })));
  assert.ok(missed(pick(media, { strategy: 'speaker_index', speaker_index: 1.5 })));
});

test('magic_hint: names and tags, case-insensitive and fuzzy', () => {
  const hint = (h: string) => pick(media, { strategy: 'magic_hint', hint: h });
  assert.equal(hint('Ann'), 0);
  assert.equal(hint('BOB please'), 1);
  assert.equal(hint('carla gomez'), 2);
  assert.equal(hint('Karla'), 2);
  assert.equal(hint('the sales rep'), 2);
  assert.equal(hint('the customer'), 1);
});

test('magic_hint: ordinals', () => {
  const hint = (h: string) => pick(media, { strategy: 'magic_hint', hint: h });
  assert.equal(hint('the first speaker'), 0);
  assert.equal(hint('the second speaker'), 1);
  assert.equal(hint('the 3rd voice'), 2);
  assert.equal(hint('the last one to speak'), 2);
  assert.equal(hint('second to last'), 1);
  assert.ok(missed(hint('the fifth speaker')));
});

test('magic_hint: times', () => {
  const hint = (h: string) => pick(media, { strategy: 'magic_hint', hint: h });
  assert.equal(hint('whoever speaks at 0:05'), 0);
  assert.equal(hint('the person around 50 s'), 1);
  assert.equal(hint('at 1:05'), 2);
  assert.equal(hint('at 1 min 5 s'), 2);
  assert.equal(hint('between 0:31 and 0:39'), 0);
  assert.ok(missed(hint('at 3:00')), 'past the end');
  assert.ok(missed(hint('at 75 seconds')), 'nobody speaks then');
});

test('magic_hint: amounts, voice and roles', () => {
  const hint = (h: string) => pick(media, { strategy: 'magic_hint', hint: h });
  assert.equal(hint('the one who talks the most'), 1);
  assert.equal(hint('speaks the least'), 2);
  assert.equal(hint('the higher voice'), 0);
  assert.equal(hint('the deepest voice'), 1);
  assert.equal(hint('the interviewer'), 0);
  assert.equal(hint('who asks the most questions'), 0);
  // Without a transcript a role cannot be read, and the miss says why.
  const r = resolveSelector(noTranscript, { strategy: 'magic_hint', hint: 'the interviewer' }, ctx);
  assert.ok(!r.ok && /transcript/.test(r.reason));
});

test('magic_hint: roles in a two-person interview', () => {
  const two = makeMedia({ durationSec: 40, turns: [turn(0, 0, 5), turn(1, 5.3, 20), turn(0, 20.3, 25), turn(1, 25.3, 39)],
    transcript: { format: 'srt', cues: [
      { speaker: 'Host', start: 0, end: 5, text: 'Welcome! What do you do?' },
      { speaker: 'Guest', start: 5.3, end: 20, text: 'I build boats by hand in a small yard.' },
      { speaker: 'Host', start: 20.3, end: 25, text: 'Why boats?' },
      { speaker: 'Guest', start: 25.3, end: 39, text: 'My father did it and I loved the smell of wood.' },
    ] } });
  const none: SelectorContext = { speakerEntityIds: [null, null], entities: {} };
  const h = (hint: string) => resolveSelector(two, { strategy: 'magic_hint', hint }, none);
  assert.deepEqual(h('the interviewer'), { ok: true, speakerIndex: 0, fellBack: false });
  assert.deepEqual(h('the interviewee'), { ok: true, speakerIndex: 1, fellBack: false });
});

test('magic_hint: no confident match is a miss, and on_miss applies', () => {
  const hint = (h: string, on_miss?: 'fallback_dominant' | 'error') => pick(media, { strategy: 'magic_hint', hint: h, on_miss });
  assert.ok(missed(hint('the purple elephant')));
  assert.ok(missed(hint('Ann, the second speaker')), 'clues that contradict each other');
  assert.equal(hint('the purple elephant', 'fallback_dominant'), 'fallback:1');
  assert.ok(missed(hint('the purple elephant', 'error')));
  const close = makeMedia({ durationSec: 10, turns: [turn(0, 0, 3), turn(1, 3.5, 7)],
    acoustic: [acousticFor(0, { pitchMedianSt: 30 }), acousticFor(1, { pitchMedianSt: 30.5 })] });
  const r = resolveSelector(close, { strategy: 'magic_hint', hint: 'the higher voice' }, { speakerEntityIds: [], entities: {} });
  assert.ok(!r.ok && /too close/.test(r.reason));
  assert.ok(missed(pick(media, { strategy: 'magic_hint', hint: null })));
});

test('magic_hint: a word shared by several names identifies nobody; the distinctive one does', () => {
  const m = makeMedia({ durationSec: 20, turns: [turn(0, 0, 5), turn(1, 5.3, 9), turn(2, 9.4, 14)] });
  m.speakers[0]!.label = 'asterisk-en-allison';
  m.speakers[1]!.label = 'asterisk-it-carlo';
  m.speakers[2]!.label = 'Anna Smith';
  const c: SelectorContext = { speakerEntityIds: [], entities: {} };
  const h = (hint: string) => {
    const r = resolveSelector(m, { strategy: 'magic_hint', hint }, c);
    return r.ok ? r.speakerIndex : null;
  };
  assert.equal(h('asterisk-it-carlo'), 1);
  assert.equal(h('carlo'), 1);
  assert.equal(h('the asterisk one'), null, 'ambiguous');
  assert.equal(h('Ana'), null, 'three letters: no fuzzy match');
  assert.equal(h('Smyth'), 2, 'near spelling');
});

test('magic_hint: "speaker N" is the speaker shown as "Speaker N" (decisions §17), unless a label says otherwise', () => {
  const hint = (m: MediaAnalysis, h: string) => pick(m, { strategy: 'magic_hint', hint: h });
  assert.equal(noTranscript.speakers.length, 3);
  assert.equal(hint(noTranscript, 'speaker 1'), 0, '"speaker 1" is Speaker 1, index 0');
  assert.equal(hint(noTranscript, 'the first speaker'), 0, 'the ordinal and the number agree');
  assert.equal(hint(noTranscript, 'speaker 2'), 1);
  assert.equal(hint(noTranscript, 'speaker #3'), 2);
  assert.equal(hint(noTranscript, 'speaker index 2'), 2, 'only "index" reads the API\'s 0-based speakerIndex');
  assert.ok(missed(hint(noTranscript, 'speaker 0')), 'nobody is shown as Speaker 0');
  assert.ok(missed(hint(noTranscript, 'speaker 4')));
  assert.ok(missed(hint(noTranscript, 'speaker 7')));
  const labelled = makeMedia({ durationSec: 20, turns: [turn(0, 0, 5), turn(1, 5.3, 9)] });
  labelled.speakers[0]!.label = 'Speaker 1';
  labelled.speakers[1]!.label = 'Speaker 2';
  const r = resolveSelector(labelled, { strategy: 'magic_hint', hint: 'Speaker 2' }, { speakerEntityIds: [], entities: {} });
  assert.deepEqual(r, { ok: true, speakerIndex: 1, fellBack: false });
});
