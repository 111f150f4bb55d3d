// Speaker names through the WebVTT and SRT exports and back through the transcript parser: a name
// with brackets, parentheses, colons, dashes, entities or any script must come back as the same
// name (white space collapsed, as every stored name is), and none of it may leak into the words.
// An export uploaded again as a transcript then keeps its people (decisions §17, §19).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import webvtt from 'webvtt-parser';
import { parseTranscript } from '@rapport/analysis';
import { toSrt, toWebVtt } from './diarization-export.ts';
import type { Diarization } from './files.schemas.ts';

const { WebVTTParser } = webvtt;

/** Names a label (64 characters, no controls) or a transcript may hold; the awkward ones on purpose. */
const NAMES = [
  'Ada Lovelace',
  'Dr. Smith [guest]',
  'Anna (chair)',
  '[Moderator]',
  '(off mic)',
  'Dr: Who',
  'Team:Blue',
  'Host:',
  'Ann-Marie',
  '- Ann',
  '-Bo',
  'Jean-Luc Picard',
  '  Lead   space  ',
  'Zoë',
  'Zoe\u0308 (decomposed)',
  '李明',
  'محمد علي',
  '🌟 Star',
  '12 Angry Men',
  'Dr. Martin Luther King Jr. (speaker)',
  'Q&A host',
  'A &amp; B',
  'Tom & Jerry',
  '<b>bold</b>',
  'x < y > z',
  'a-->b',
  'Ann, PhD',
  'O\'Brien',
  '"Bo" Diddley',
  'Speaker #1',
  'Mr. [redacted]: the witness',
  'Ann: ',
  'Speaker 3',
];

/** The name a parser can give back: white space runs as one space, none at the ends. */
const canonical = (name: string) => name.replace(/\s+/g, ' ').trim();

/** One segment per name, each speaker its own index; with words on every other one. */
function oneEach(): { d: Diarization; texts: (string | null)[]; names: (i: number) => string } {
  const segments = NAMES.map((_n, k) => ({ speaker: k, start: k * 2, end: k * 2 + 1.5 }));
  const texts = NAMES.map((_n, k) => (k % 2 ? `Words: of cue ${k} [laughs] (aside) - more` : null));
  return { d: { mediaId: 'med_names', durationSec: NAMES.length * 2, segments }, texts, names: (i) => NAMES[i] ?? `Speaker ${i + 1}` };
}

/** What a transcript parsed from each file says of each cue: its speaker and words. */
function readBack(file: string): [string | null, string][] {
  const t = parseTranscript(file);
  assert.ok(t, 'parsed as a transcript');
  return t.cues.map((c) => [c.speaker, c.text]);
}

describe('speaker names through the exports and back', () => {
  const { d, texts, names } = oneEach();
  const expected = NAMES.map((n, k): [string | null, string] => [canonical(n), k % 2 ? `Words: of cue ${k} (aside) - more` : '']);

  it('WebVTT: every name comes back the same, none in the words', () => {
    const got = readBack(toWebVtt(d, texts, names));
    NAMES.forEach((n, k) => assert.deepEqual(got[k], expected[k], JSON.stringify(n)));
  });

  it('SRT: every name comes back the same, none in the words', () => {
    const got = readBack(toSrt(d, texts, names));
    NAMES.forEach((n, k) => assert.deepEqual(got[k], expected[k], JSON.stringify(n)));
  });

  it('each name alone in a file of one cue comes back the same', () => {
    // No other cue to say the file is labelled: the one cue's own form must be enough.
    for (const [k, n] of NAMES.entries()) {
      const one: Diarization = { mediaId: 'm', durationSec: 2, segments: [{ speaker: 0, start: 0, end: 1 }] };
      for (const text of [null, 'Hello: there']) {
        const want: [string | null, string][] = [[canonical(n), text ?? '']];
        assert.deepEqual(readBack(toWebVtt(one, [text], () => n)), want, `vtt ${k} ${JSON.stringify(n)} ${text}`);
        assert.deepEqual(readBack(toSrt(one, [text], () => n)), want, `srt ${k} ${JSON.stringify(n)} ${text}`);
      }
    }
  });

  it('the WebVTT stays valid and a WebVTT reader sees the same voices', () => {
    const vtt = toWebVtt(d, texts, names);
    const { cues, errors } = new WebVTTParser().parse(vtt, 'metadata');
    assert.deepEqual(errors, []);
    assert.equal(cues.length, NAMES.length);
    // webvtt-parser 2.2 keeps character references in an annotation as written; the WebVTT
    // tokenizer decodes them (w3c/webvtt#266), as browsers and our parser do.
    const decoded = (s = '') => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
    cues.forEach((c, k) => {
      const voice = c.tree.children[0];
      assert.equal(voice?.name, 'v');
      assert.equal(decoded(voice?.value), canonical(NAMES[k] ?? ''), `voice of cue ${k + 1}`);
    });
  });

  it('random names of awkward characters come back the same, in files of many cues and of one', () => {
    // Seeded, so a failure names a name that fails every time.
    let x = 20261203;
    const rand = (n: number) => Math.floor(((x = (x * 1103515245 + 12345) % 2147483648) / 2147483648) * n);
    const alphabet = ['a', 'B', 'z', 'é', '李', '🌟', '1', ' ', ' ', '\t', '\u00A0', ':', ':', '-', '-', '>', '<', '&', ';', 'l', 't', 'amp', '#', '[', ']', '(', ')', '.', ',', '"', "'", 'v'];
    const random = Array.from({ length: 1500 }, () => Array.from({ length: 1 + rand(12) }, () => alphabet[rand(alphabet.length)]).join(''));
    const want = (n: string, i: number) => canonical(n) || `Speaker ${i + 1}`;
    const many: Diarization = { mediaId: 'm', durationSec: random.length, segments: random.map((_n, k) => ({ speaker: k, start: k, end: k + 0.5 })) };
    for (const write of [toWebVtt, toSrt]) {
      const texts = random.map((_n, k) => (k % 3 ? null : `said: ${k}`));
      const back = readBack(write(many, texts, (i) => random[i] ?? ''));
      random.forEach((n, k) => assert.deepEqual(back[k], [want(n, k), k % 3 ? '' : `said: ${k}`], `${write.name} ${JSON.stringify(n)}`));
      for (const [k, n] of random.slice(0, 300).entries()) {
        const one: Diarization = { mediaId: 'm', durationSec: 1, segments: [{ speaker: 0, start: 0, end: 1 }] };
        assert.deepEqual(readBack(write(one, [null], () => n)), [[want(n, 0), '']], `${write.name} alone ${k} ${JSON.stringify(n)}`);
      }
    }
  });

  it('the SRT shows a name as written, but for the spaces and markup the parser would read as syntax', () => {
    const one = (name: string) => toSrt({ mediaId: 'm', durationSec: 1, segments: [{ speaker: 0, start: 0, end: 1 }] }, ['Hi.'], () => name).split('\n')[2];
    assert.equal(one('Dr. Smith [guest]'), 'Dr. Smith [guest]: Hi.');
    assert.equal(one('Anna (chair)'), 'Anna (chair): Hi.');
    assert.equal(one('Tom & Jerry'), 'Tom & Jerry: Hi.');
    assert.equal(one('Dr: Who'), 'Dr:\u00A0Who: Hi.', 'a no-break space: the separator is the first colon before an ordinary space');
    assert.equal(one('- Ann'), '-\u00A0Ann: Hi.', 'not a dialogue dash');
    assert.equal(one('<b>x</b> &amp; a-->b'), '&lt;b>x&lt;/b> &amp;amp; a--&gt;b: Hi.');
    assert.equal(one('   '), 'Speaker 1: Hi.', 'a name of white space is no name');
    assert.match(toWebVtt({ mediaId: 'm', durationSec: 1, segments: [{ speaker: 0, start: 0, end: 1 }] }, [null], () => 'Q&A <x> a-->b'), /\n<v Q&amp;A &lt;x&gt; a--&gt;b>\[Q&amp;A &lt;x&gt; a--&gt;b speaking\]\n/);
  });

  it('a JSON transcript\'s names, "<" and ">" too, come back the same through either export', () => {
    // The JSON reader once dropped "<" and ">" from names; now it keeps them, and only WebVTT,
    // whose voice tag may not hold them, writes them as references.
    const json = JSON.stringify({ segments: NAMES.map((speaker, k) => ({ speaker, start: k * 2, end: k * 2 + 1.5, text: `cue ${k}` })) });
    const fromJson = parseTranscript(json)?.cues.map((c) => c.speaker) ?? [];
    assert.deepEqual(fromJson, NAMES.map(canonical));
    const one: Diarization = { mediaId: 'm', durationSec: 1, segments: [{ speaker: 0, start: 0, end: 1 }] };
    for (const name of fromJson) {
      for (const write of [toWebVtt, toSrt]) assert.deepEqual(readBack(write(one, ['Hi.'], () => name ?? '')), [[name, 'Hi.']], `${write.name} ${JSON.stringify(name)}`);
    }
  });

  it('no cue of either file holds a blank line or a stray "-->"', () => {
    for (const file of [toWebVtt(d, texts, names), toSrt(d, texts, names)]) {
      const blocks = file.trimEnd().split('\n\n');
      assert.equal(blocks.length, NAMES.length + (file.startsWith('WEBVTT') ? 1 : 0));
      for (const b of blocks) assert.ok(b.split('\n').filter((l) => l.includes('-->')).length <= 1, b);
    }
  });
});
