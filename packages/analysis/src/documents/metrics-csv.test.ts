import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SpeakerMetrics as SpeakerMeasures } from '../types.ts';
import { MEASURE_COLUMNS, entityMetricsCsv, measuresTable, mediaMetricsCsv } from './metrics-csv.ts';

const m = (speechSec: number, pitchMedianSt: number | null): SpeakerMeasures => ({
  speechSec, talkShare: 0.625, turns: 4, medianTurnSec: 2, longestTurnSec: 5, pausesPerMin: 6, medianPauseSec: 0.4,
  speakingRateSylPerSec: 4.2, articulationRateSylPerSec: 5, pitchMedianSt, pitchRangeSt: 6, pitchVariabilitySt: 2,
  loudnessMeanDb: -24, loudnessVariabilityDb: 4, medianGapBeforeTurnSec: 0.3,
  interruptionsMade: null, interruptionsReceived: null, backchannels: null, overlapSec: null,
  language: { words: 120, wordsPerMinute: 150, questionRate: 2.5, hedgeRate: 1, firstPersonSingularRate: 3, firstPersonPluralRate: 1, sentiment: 0.25, functionWords: {} },
});

/** RFC 4180 fields, enough for these files: quoted fields with doubled quotes. */
function parseCsv(text: string): string[][] {
  return text.trimEnd().split('\n').map((line) => {
    const out: string[] = [];
    let i = 0;
    while (i <= line.length) {
      if (line[i] === '"') {
        let v = '';
        i++;
        while (i < line.length) {
          if (line[i] === '"' && line[i + 1] === '"') { v += '"'; i += 2; } else if (line[i] === '"') { i++; break; } else v += line[i++];
        }
        out.push(v);
        i++;
      } else {
        const end = line.indexOf(',', i) === -1 ? line.length : line.indexOf(',', i);
        out.push(line.slice(i, end));
        i = end + 1;
      }
    }
    return out;
  });
}

test('a media as CSV: one row per speaker, every header with its unit, nulls empty, labels quoted', () => {
  const rows = parseCsv(mediaMetricsCsv({ mediaId: 'med_1', speakers: [
    { index: 0, entityId: 'ent_a', label: 'Smith, "Jo"', metrics: m(80.1234, 36) },
    { index: 1, entityId: null, label: null, metrics: m(20, null) },
  ] }));
  const [header, a, b] = rows;
  assert.equal(rows.length, 3);
  assert.deepEqual(header?.slice(0, 4), ['media', 'speaker', 'speaker index (from 0)', 'entity']);
  for (const h of header?.slice(4) ?? []) assert.match(h, /\(.+\)$/, `unit in ${h}`);
  const at = (row: string[] | undefined, h: string) => row?.[header?.indexOf(h) ?? -1];
  assert.equal(at(a, 'speaker'), 'Smith, "Jo"');
  assert.equal(at(b, 'speaker'), 'Speaker 2', 'decisions §17: no label, "Speaker N" from 1');
  assert.equal(at(b, 'speaker index (from 0)'), '1');
  assert.equal(at(a, 'speech (s)'), '80.123');
  assert.equal(at(a, 'talk share (%)'), '62.5');
  assert.equal(at(a, 'pitch median (Hz)'), '220', '36 semitones above 27.5 Hz is three octaves: 220 Hz');
  assert.equal(at(a, 'pitch median (semitones re 27.5 Hz)'), '36');
  assert.equal(at(a, 'interruptions made (count)'), '', 'not measured is empty, not 0');
  assert.equal(at(a, 'words (count)'), '120');
  assert.equal(at(b, 'entity'), '');
  assert.equal(at(b, 'pitch median (Hz)'), '');
  assert.equal(a?.length, header?.length);
});

test('an entity as CSV: the profile first (media "all"), then each appearance', () => {
  const rows = parseCsv(entityMetricsCsv({ entityId: 'ent_a', label: null, metrics: m(30, 30), appearances: [{ mediaId: 'med_1', speakerIndex: 0, metrics: m(10, 29) }, { mediaId: 'med_2', speakerIndex: 1, metrics: m(20, 31) }] }));
  assert.deepEqual(rows.map((r) => r.slice(0, 4)), [['entity', 'label', 'media', 'speaker index (from 0)'], ['ent_a', '', 'all', ''], ['ent_a', '', 'med_1', '0'], ['ent_a', '', 'med_2', '1']]);
  const none = parseCsv(entityMetricsCsv({ entityId: 'ent_b', label: 'B', metrics: null, appearances: [] }));
  assert.ok(none[1]?.slice(4).every((c) => c === ''), 'no speech: empty measures');
});

test('the terminal table has one row per measure', () => {
  const t = measuresTable(['speaker 0'], [m(10, 36)]);
  assert.equal(t.length, MEASURE_COLUMNS.length + 1);
  assert.deepEqual(t.find((r) => r[0] === 'pitch median (Hz)'), ['pitch median (Hz)', '220']);
});

test('labels that a spreadsheet would read as formulas are written as text (issue 32, finding 8)', () => {
  const hostile = ['=HYPERLINK("http://evil.example","x")', '+1+1', '-2+3', '@SUM(A1:A9)', '\tx'];
  const csv = mediaMetricsCsv({ mediaId: 'med_1', speakers: hostile.map((label, index) => ({ index, entityId: null, label, metrics: m(10, 40) })) });
  const rows = parseCsv(csv).slice(1);
  assert.deepEqual(rows.map((r) => r[1]), hostile.map((l) => `'${l}`), 'the speaker column carries the label (decisions §17)');
  // Negative figures stay numbers.
  assert.equal(rows[0]?.[MEASURE_COLUMNS.findIndex((c) => c.header === 'loudness mean (dBFS)') + 4], '-24');
  assert.equal(entityMetricsCsv({ entityId: 'ent_1', label: '=1+2', metrics: m(1, 40), appearances: [] }).split('\n')[1]?.split(',')[1], "'=1+2");
});
