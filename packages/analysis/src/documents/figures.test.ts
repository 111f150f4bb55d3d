import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildMatching } from './matching.ts';
import { buildReport } from './report.ts';
import { documentFigures, figureFor } from './figures.ts';
import { figureText, textBar } from './figure-text.ts';
import { figureSvg } from './figure-svg.ts';
import { unexplainedFigures } from './figures.testkit.ts';
import { aggregateMetrics } from '../behavior/speaker-metrics.ts';
import { conversation, makeMedia } from '../behavior/fixtures.testkit.ts';
import type { MediaAnalysis } from '../types.ts';
import type { MemberInput } from './types.ts';

const media: Record<string, MediaAnalysis> = {
  med_a: makeMedia(conversation(31, 120, true)),
  med_b: makeMedia(conversation(32, 90, false)),
};
const member = (ref: string, name: string, mediaId: string, speakerIndex: number): MemberInput => ({
  ref, name, entityId: null, metrics: aggregateMetrics([{ metrics: media[mediaId]!.speakers[speakerIndex]!.metrics }]), appearances: [{ mediaId, speakerIndex }],
});
const target = member('target', 'Ines', 'med_a', 0);
const matching = buildMatching({ target, group: [member('group[0]', 'Jon', 'med_a', 1), member('group[1]', 'Kai <b>&', 'med_b', 0)], media });
const report = buildReport({ target, media });

test('every illustration of a document has its figure, four variants in a matching document', () => {
  const figs = documentFigures(matching.document, matching.evidence);
  assert.deepEqual(figs.map((f) => f.block.variant), ['connection', 'conversation', 'growth', 'analysis']);
  for (const f of figs) assert.ok(f.figure && f.figure.groups.length > 0 && f.figure.groups.every((g) => g.bars.length > 0), f.block.variant);
  const rep = documentFigures(report.document, report.evidence);
  assert.deepEqual(rep.map((f) => f.block.variant), ['conversation', 'growth', 'analysis']);
  for (const f of rep) assert.ok(f.figure, f.block.variant);
});

test('no figure of a document draws a group of another again: a report\'s growth marks the advice\'s norms', () => {
  // A report (and a matching document without pairs) drew the target's median gap in its
  // conversation figure and again in growth, the same bar with the same mark (everyday
  // conversation's gap): growth is about the norms the advice uses, a gap longer than 1 s.
  const alone = buildMatching({ target, group: [], media });
  for (const built of [matching, report, alone]) {
    const groups = documentFigures(built.document, built.evidence).flatMap((f) => f.figure?.groups ?? []).map((g) => JSON.stringify(g));
    assert.deepEqual(groups.filter((g, k) => groups.indexOf(g) !== k), [], built.document.title);
  }
  const growth = figureFor('growth', report.evidence)!;
  assert.deepEqual(growth.groups.map((g) => [g.heading, g.marker]), [
    ['Median gap before taking the floor', { value: report.evidence.method.longGapSec, label: 'long above 1.0 s' }],
    ['Average talk share', { value: report.evidence.method.dominantShare, label: 'dominant above 60%' }],
  ]);
  // The conversation figure keeps everyday conversation's gap, on the same scale.
  const gap = figureFor('conversation', report.evidence)!.groups.find((g) => g.heading === growth.groups[0]?.heading);
  assert.deepEqual([gap?.marker?.label, gap?.max], ['everyday conversation 0.2 s', growth.groups[0]?.max]);
});

test('the Markdown draws each figure as text instead of a comment, and its figures are in the evidence', () => {
  for (const built of [matching, report]) {
    assert.doesNotMatch(built.markdown, /<!-- illustration/);
    assert.deepEqual(unexplainedFigures(built.markdown, built.evidence), []);
  }
  assert.equal(matching.markdown.match(/^\*\*Figure: /gm)?.length, 4);
  assert.equal(matching.markdown.match(/^```text$/gm)?.length, 4);
  const connection = figureFor('connection', matching.evidence)!;
  const jon = matching.evidence.pairs[0]!;
  assert.match(figureText(connection), new RegExp(`Jon\\s+[█▉▊▋▌▍▎▏░]{20}  ${Math.round(jon.overall.score ?? -1)}  confidence`));
});

test('text bars: 20 cells in eighths, empty when not measured, a marker drawn across', () => {
  assert.equal(textBar(50, 100), `${'█'.repeat(10)}${'░'.repeat(10)}`);
  assert.equal(textBar(100, 100), '█'.repeat(20));
  assert.equal(textBar(130, 100), '█'.repeat(20), 'clamped');
  assert.equal(textBar(null, 100), '░'.repeat(20));
  assert.equal(textBar(51.25, 100), `${'█'.repeat(10)}▎${'░'.repeat(9)}`);
  assert.equal(textBar(0, 100, 60), `${'░'.repeat(11)}┃${'░'.repeat(8)}`);
});

test('SVG: one <svg> of paths, each bar as wide as its value, names escaped, no script or external reference', () => {
  for (const { figure } of documentFigures(matching.document, matching.evidence)) {
    const svg = figureSvg(figure!);
    assert.match(svg, /^<svg [^>]*role="img" aria-label="[^"]+"/);
    assert.doesNotMatch(svg, /<script|href=|url\(|@import/);
    const paths = [...svg.matchAll(/<path [^>]*d="([^"]*)"/g)].map((m) => m[1]);
    assert.ok(paths.length >= 2 && paths.every((d) => d && d.length > 3));
  }
  const connection = figureFor('connection', matching.evidence)!;
  const svg = figureSvg(connection);
  const widths = [...svg.matchAll(/<path class="bar" d="M0 [\d.]+h([\d.]+)v/g)].map((m) => Number(m[1]));
  const expected = matching.evidence.pairs.filter((p) => (p.overall.score ?? 0) > 0).map((p) => (360 * (p.overall.score ?? 0)) / 100);
  assert.equal(widths.length, expected.length);
  widths.forEach((w, i) => assert.ok(Math.abs(w - (expected[i] ?? 0)) < 0.01, `${w} vs ${expected[i]}`));
  assert.match(svg, /Kai &lt;b&gt;&amp;/);
  assert.doesNotMatch(svg, /Kai <b>/);
});

test('the figure renderer imports nothing Node-only, so a browser dashboard can use it', () => {
  const here = dirname(fileURLToPath(import.meta.url));
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const src = readFileSync(file, 'utf8');
    for (const m of src.matchAll(/^(?:import|export) (?:type )?[^'";]*from ['"]([^'"]+)['"]|^import ['"]([^'"]+)['"]/gm)) {
      const spec = m[1] ?? m[2] ?? '';
      const typeOnly = /^(?:import|export) type /.test(m[0]);
      assert.ok(spec.startsWith('.'), `${file} imports ${spec}`);
      if (!typeOnly) visit(resolve(dirname(file), spec));
    }
  };
  visit(join(here, 'render.ts'));
  for (const f of ['figures.ts', 'figure-text.ts', 'figure-svg.ts', 'html.ts', 'markdown.ts']) assert.ok(seen.has(join(here, f)), f);
});
