import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildMatching } from './matching.ts';
import { buildReport } from './report.ts';
import { validateResultDocument } from './schema.ts';
import { shortNames } from './naming.ts';
import { duration, semitonesToHz } from './format.ts';
import { unexplainedFigures } from './figures.testkit.ts';
import { aggregateMetrics } from '../behavior/speaker-metrics.ts';
import { conversation, makeMedia } from '../behavior/fixtures.testkit.ts';
import type { MediaAnalysis } from '../types.ts';
import type { MemberInput } from './types.ts';

const media: Record<string, MediaAnalysis> = {
  med_a: makeMedia(conversation(21, 150, true)),
  med_b: makeMedia(conversation(22, 60, false)),
};
function speaker(ref: string, mediaId: string, file: string, index: number, label: string | null = null): MemberInput {
  const metrics = aggregateMetrics([{ metrics: media[mediaId]!.speakers[index]!.metrics }]);
  const base = { ref, entityId: null, metrics, appearances: [{ mediaId, speakerIndex: index }] };
  return label ? { ...base, name: label } : { ...base, name: `Speaker ${index + 1} in ${file}`, shortName: `Speaker ${index + 1}` };
}
const occurrences = (text: string, s: string) => text.split(s).length - 1;

test('an unnamed speaker is "Speaker 2 in interview.wav" once, then "Speaker 2"', () => {
  const built = buildMatching({ target: speaker('target', 'med_a', 'interview.wav', 0), group: [speaker('group[0]', 'med_a', 'interview.wav', 1)], media });
  assert.deepEqual(validateResultDocument(built.document, { strictIcons: true }), []);
  const md = built.markdown;
  assert.equal(occurrences(md, 'Speaker 1 in interview.wav'), 1);
  assert.equal(occurrences(md, 'Speaker 2 in interview.wav'), 1);
  assert.match(built.document.title, /Speaker 1 in interview\.wav/, 'the first mention is the title');
  assert.ok(occurrences(md, 'Speaker 2') > 5, 'named briefly after');
  assert.ok(md.indexOf('Speaker 2 in interview.wav') < md.indexOf('Speaker 2', md.indexOf('Speaker 2 in interview.wav') + 1));
  // The document strings follow the same order: the JSON document names each once in full too.
  assert.equal(occurrences(JSON.stringify(built.document), 'Speaker 2 in interview.wav'), 1);
  // The evidence keeps the full name and the short one documents use.
  assert.equal(built.evidence.group[0]?.name, 'Speaker 2 in interview.wav');
  assert.equal(built.evidence.group[0]?.shortName, 'Speaker 2');
  assert.equal(built.evidence.pairs[0]?.name, 'Speaker 2 in interview.wav');
  assert.deepEqual(unexplainedFigures(md, built.evidence), []);
});

test('labelled members are named by their label everywhere', () => {
  const built = buildMatching({ target: speaker('target', 'med_a', 'a.wav', 0, 'Ada'), group: [speaker('group[0]', 'med_a', 'a.wav', 1, 'Ben')], media });
  assert.doesNotMatch(built.markdown, /Speaker \d/);
  assert.ok(occurrences(built.markdown, 'Ben') > 5);
});

test('two "Speaker 1" from different recordings keep their full names throughout', () => {
  const built = buildMatching({ target: speaker('target', 'med_a', 'a.wav', 0), group: [speaker('group[0]', 'med_b', 'b.wav', 0), speaker('group[1]', 'med_a', 'a.wav', 1)], media });
  const md = built.markdown;
  assert.doesNotMatch(md.replaceAll('Speaker 1 in a.wav', '').replaceAll('Speaker 1 in b.wav', ''), /Speaker 1(?! in)/);
  assert.ok(occurrences(md, 'Speaker 1 in b.wav') > 1);
  assert.equal(occurrences(md, 'Speaker 2 in a.wav'), 1, 'the unambiguous one is still shortened');
  assert.deepEqual(shortNames([{ name: 'X in a', shortName: 'X' }, { name: 'X in b', shortName: 'X' }, { name: 'Y in a', shortName: 'Y' }]), ['X in a', 'X in b', 'Y']);
  assert.deepEqual(shortNames([{ name: 'Speaker 1' }, { name: 'Speaker 1 in a', shortName: 'Speaker 1' }]), ['Speaker 1', 'Speaker 1 in a'], 'a short name equal to a label is ambiguous');
});

test('a report names its one speaker in full once', () => {
  const built = buildReport({ target: speaker('target', 'med_b', 'call.mp3', 1), media });
  assert.equal(occurrences(built.markdown, 'Speaker 2 in call.mp3'), 1);
  assert.ok(occurrences(built.markdown, 'Speaker 2') > 3);
  assert.deepEqual(unexplainedFigures(built.markdown, built.evidence), []);
});

test('figures in the units a person reads: pitch in Hz, durations in min and s, shares in percent', () => {
  const built = buildMatching({ target: speaker('target', 'med_a', 'interview.wav', 0), group: [speaker('group[0]', 'med_a', 'interview.wav', 1)], media });
  const t = built.evidence.target;
  const hz = semitonesToHz(t.metrics.pitchMedianSt, 27.5);
  assert.ok(hz !== null && hz > 50 && hz < 500);
  assert.equal(t.pitchMedianHz, hz);
  assert.match(built.markdown, new RegExp(`Pitch median ${Math.round(hz)} Hz`));
  assert.doesNotMatch(built.markdown, /semitones above/);
  assert.match(built.markdown, new RegExp(`${duration(t.metrics.speechSec)} of speech`));
  assert.match(duration(t.metrics.speechSec), /^\d+ min \d+ s$/);
  assert.match(built.markdown, /talk share \d+%/);
  assert.doesNotMatch(built.markdown, /\d+\.\d+ min\b/, 'no decimal minutes');
});

test('durations read as a person says them', () => {
  assert.equal(duration(144), '2 min 24 s');
  assert.equal(duration(143.6), '2 min 24 s');
  assert.equal(duration(120), '2 min');
  assert.equal(duration(42.4), '42 s');
  assert.equal(duration(4.24), '4.2 s');
  assert.equal(duration(59.6), '1 min');
  assert.equal(duration(3780), '1 h 3 min');
  assert.equal(duration(7200), '2 h');
  assert.equal(duration(null), 'not measured');
  assert.equal(semitonesToHz(0, 27.5), 27.5);
  assert.equal(semitonesToHz(12, 27.5), 55);
  assert.equal(semitonesToHz(null, 27.5), null);
});
