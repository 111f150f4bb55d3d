import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MEASURES, csvFigure, measureOf, shownFigure } from './measures.ts';
import { measuresTable, mediaMetricsCsv } from './metrics-csv.ts';
import { computeSpeakerMetrics } from '../behavior/speaker-metrics.ts';
import { turn } from '../behavior/fixtures.testkit.ts';

test('every per-speaker figure has one key, one name with its unit, and a definition', () => {
  assert.equal(new Set(MEASURES.map((m) => m.key)).size, MEASURES.length, 'keys are unique');
  assert.equal(new Set(MEASURES.map((m) => m.header)).size, MEASURES.length, 'headers are unique');
  for (const m of MEASURES) {
    assert.equal(m.header, `${m.name} (${m.unit})`);
    assert.ok(m.definition.length > 10, m.key);
    assert.ok(m.shown <= m.decimals, `${m.key}: a table never shows more than the CSV holds`);
  }
  assert.throws(() => measureOf('meanTurnSec'), /no measure/, 'the dashboard\'s old "mean turn" is no figure');
});

test('the CSV, the terminal table and a shown figure give the same value for the same speaker', () => {
  const segments = [{ speaker: 0, start: 0, end: 2 }, { speaker: 0, start: 2.4, end: 5 }, { speaker: 1, start: 5.14, end: 5.82 }, { speaker: 0, start: 6.2, end: 9 }];
  const turns = [turn(0, 0, 5), turn(1, 5.14, 5.82), turn(0, 6.2, 9)];
  const metrics = computeSpeakerMetrics({ durationSec: 10, segments, turns, acoustic: [], transcript: null, labels: [null, null] });
  const csv = mediaMetricsCsv({ mediaId: 'med_1', speakers: metrics.map((m, index) => ({ index, entityId: null, label: null, metrics: m })) }).trim().split('\n').map((l) => l.split(','));
  const table = measuresTable(['Speaker 1', 'Speaker 2'], metrics);
  const csvText = csv.map((r) => r.join(',')).join('\n');
  MEASURES.forEach((m, k) => {
    // After media, speaker, index and entity; data cells hold no commas here.
    const col = 4 + k;
    assert.ok(csvText.split('\n')[0]!.includes(m.header), `${m.header} in the CSV`);
    const row = table.find((r) => r[0] === m.header);
    metrics.forEach((sm, i) => {
      const shown = shownFigure(m, sm);
      assert.equal(row?.[i + 1], shown ?? '-', `${m.header}: the CLI table shows the shown figure`);
      const inCsv = csv[i + 1]![col]!;
      assert.equal(inCsv === '' ? null : Number(inCsv), csvFigure(m, sm));
      if (shown !== null) assert.equal(Number(inCsv).toFixed(m.shown), shown, `${m.header}: the CSV rounds to what the table shows`);
    });
  });
  assert.equal(shownFigure(measureOf('medianTurnSec'), metrics[1]!), '0.68');
  assert.equal(shownFigure(measureOf('medianGapBeforeTurnSec'), metrics[1]!), '0.14');
});
