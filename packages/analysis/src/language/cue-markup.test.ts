// The one-pass reading of a cue's tags against the regexes it replaced (the definition): the same
// answers on random cues of markup's awkward characters, and on hostile cues far too long for the
// regexes (a cue of 100,000 unclosed `<v` held them about a minute), answers checked by what they
// must be rather than by time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stripTags, voiceAnnotations } from './cue-markup.ts';
import { parseTranscript } from './transcripts.ts';

const naiveVoices = (raw: string) => [...raw.matchAll(/<v(?:\.[^\s>]*)?[ \t]+([^>]+)>/g)].map((m) => m[1] ?? '');
const naiveStrip = (raw: string) => raw.replace(/<[^>]*>/g, '');

test('reads every random cue as the regexes did', () => {
  // Seeded, so a failure names a cue that fails every time.
  let x = 20261204;
  const rand = (n: number) => Math.floor(((x = (x * 1103515245 + 12345) % 2147483648) / 2147483648) * n);
  const pieces = ['<v', '<v ', '<v.', '<v.a', '<v\t', '<', '>', ' ', '\t', '\n', '\u00A0', '.', 'v', 'V', 'Ann', '</v>', '<b>', '&gt;', 'x', '<v  >', '<v >'];
  for (let k = 0; k < 20_000; k++) {
    const raw = Array.from({ length: rand(16) }, () => pieces[rand(pieces.length)]).join('');
    assert.deepEqual(voiceAnnotations(raw), naiveVoices(raw), JSON.stringify(raw));
    assert.equal(stripTags(raw), naiveStrip(raw), JSON.stringify(raw));
  }
});

test('reads what WebVTT writes as the regexes did', () => {
  for (const raw of ['<v Ann>Hi</v>', '<v.loud.x Bob  Lee>Yes <b>and</b> <i>no</i>', '<v   >blank', '<v.a\tTab>x', '<v Ann><v Bob>both', 'no tags', '<v a <v b>c', '1 < 2 > 0', '<<>>']) {
    assert.deepEqual(voiceAnnotations(raw), naiveVoices(raw), raw);
    assert.equal(stripTags(raw), naiveStrip(raw), raw);
  }
});

test('hostile cues too long for the regexes get the answers they must', () => {
  const n = 100_000;
  // Unclosed: no voice, and every character kept (nothing is a tag without a `>`).
  for (const unit of ['<v', '<v ', '<v.', '<v.a', '<']) {
    const raw = unit.repeat(n);
    assert.deepEqual(voiceAnnotations(raw), [], unit);
    assert.ok(stripTags(raw) === raw, `${unit}: every character kept`);
  }
  // Closed at the very end: one tag that holds all the rest.
  const closed = `${'<v '.repeat(n)}>`;
  const [whole, ...more] = voiceAnnotations(closed);
  assert.ok(whole === '<v '.repeat(n - 1) && more.length === 0, 'one voice, all the rest');
  assert.equal(stripTags(closed), '');
  // Classes that never meet a blank, closed: no voice (a class must be followed by a blank).
  assert.deepEqual(voiceAnnotations(`${'<v.'.repeat(n)}>`), []);
  // Thousands of voices in one cue, each its own: all read, in order; the cue names no one.
  const voices = Array.from({ length: n / 10 }, (_, k) => `<v S${k}>w${k} `).join('');
  assert.deepEqual(voiceAnnotations(voices), Array.from({ length: n / 10 }, (_, k) => `S${k}`));
  assert.equal(stripTags(voices).trim(), Array.from({ length: n / 10 }, (_, k) => `w${k}`).join(' '));
});

test('a transcript of hostile cues parses to what they say', () => {
  const cue = (text: string) => `WEBVTT\n\n00:00.000 --> 00:01.000\n${text}\n\n00:01.000 --> 00:02.000\n<v Ann>after\n`;
  const unclosed = parseTranscript(cue('<v'.repeat(100_000)));
  assert.deepEqual(unclosed?.cues.map((c) => [c.speaker, c.text.length]), [[null, 200_000], ['Ann', 5]]);
  const many = parseTranscript(cue(Array.from({ length: 10_000 }, (_, k) => `<v S${k}>w`).join(' ')));
  assert.deepEqual(many?.cues.map((c) => [c.speaker, c.text.length]), [[null, 10_000 * 2 - 1], ['Ann', 5]]);
  const same = parseTranscript(cue('<v Bob>w '.repeat(10_000)));
  assert.deepEqual(same?.cues.map((c) => c.speaker), ['Bob', 'Ann'], 'one voice however often it is tagged');
});
