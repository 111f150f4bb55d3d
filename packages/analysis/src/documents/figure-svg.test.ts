// Issue 33 item 7: a figure's headings and names are shown whole, wrapped onto more lines,
// never cut ("Entrainment with Speaker 1 in…").
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
