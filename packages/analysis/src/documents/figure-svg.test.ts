// Issue 33 item 7: a figure's headings and names are shown whole, wrapped onto more lines,
// never cut ("Entrainment with Speaker 1 in…"). Issue 40 item 8: a threshold is a mark on each
// bar's track, not a line down through the labels.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { figureSvg, wrapText } from './figure-svg.ts';
import type { Figure } from './figures.ts';

test('wrapText breaks at spaces into lines of at most the width', () => {
  assert.deepEqual(wrapText('Entrainment with Speaker 1 in interview-cs-small.wav', 30), ['Entrainment with Speaker 1 in', 'interview-cs-small.wav']);
  assert.deepEqual(wrapText('short', 30), ['short']);
  for (const line of wrapText('a b c d e f g h i j k l m n o p q r s t u v w x y z '.repeat(6), 20)) assert.ok(line.length <= 20, line);
});

test('a long heading and a long member name appear whole in the SVG', () => {
  const heading = 'Entrainment with Speaker 1 in illets-cs-small.wav and 2 other recordings';
  const name = 'Speaker 2 in a-rather-long-recording-name.wav';
  const f: Figure = { variant: 'connection', title: 'Compatibility', groups: [{ heading, max: 100, bars: [{ label: name, value: 82, text: '82', note: null }] }] } as unknown as Figure;
  const svg = figureSvg(f);
  const text = [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]).join(' ');
  for (const word of `${heading} ${name}`.split(' ')) assert.ok(text.includes(word), `${word} in ${text}`);
  assert.ok(!text.includes('…'), text);
});

test('drawn wider, the same figure has longer bars and fewer wrapped lines, never narrower than the phone drawing', () => {
  const f: Figure = { variant: 'connection', title: 'T', groups: [{ heading: 'Entrainment with Speaker 1 in illets-cs-small.wav and 2 other recordings', max: 100, bars: [{ label: 'Speaker 2', value: 50, text: '50', note: null }] }] } as unknown as Figure;
  const narrow = figureSvg(f);
  const wide = figureSvg(f, { width: 800 });
  assert.match(narrow, /viewBox="0 0 360 /);
  assert.match(wide, /viewBox="0 0 800 /);
  assert.match(wide, /class="bar" d="M0 \d+h400v/, 'half of 800');
  assert.ok((wide.match(/font-weight="700"/g) ?? []).length < (narrow.match(/font-weight="700"/g) ?? []).length, 'the heading needs fewer lines');
  assert.match(figureSvg(f, { width: 200 }), /viewBox="0 0 360 /);
});

test('a threshold is a short mark on each bar track, at its value, at any width', () => {
  const f: Figure = { variant: 'growth', title: 'T', groups: [{ heading: 'Score', max: 100, marker: { value: 60, label: 'growth threshold 60' }, bars: [
    { label: 'Language style matching with Speaker 2 in a-long-recording-name.wav', value: 66, text: '66', note: 'confidence 72%' },
    { label: 'Entrainment', value: 81, text: '81', note: null },
  ] }] } as unknown as Figure;
  for (const width of [360, 720]) {
    const svg = figureSvg(f, { width });
    const tracks = [...svg.matchAll(/<path d="M0 ([\d.]+)h([\d.]+)v11[^"]*" fill="#e5e7eb"/g)].map((m) => Number(m[1]));
    const marks = [...svg.matchAll(/<path class="marker" d="M([\d.]+) ([\d.]+)V([\d.]+)"/g)].map((m) => ({ x: Number(m[1]), top: Number(m[2]), bottom: Number(m[3]) }));
    assert.equal(tracks.length, 2);
    assert.deepEqual(marks, tracks.map((at) => ({ x: width * 0.6, top: at - 2, bottom: at + 13 })), `${width}: one mark per track, 2 units beyond it`);
    assert.match(svg, /┃ growth threshold 60<\/text>/);
  }
});
