import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseTranscript } from './transcripts.ts';

test('WebVTT with <v Name> voice tags', () => {
  const t = parseTranscript(`WEBVTT - interview

NOTE this is a comment

1
00:00:01.000 --> 00:00:04.500 align:start
<v Alice Smith>Hello <b>there</b>, how are you?</v>

00:05.250 --> 00:07.000
<v.loud Bob>I'm fine &amp; you?
`);
  assert.ok(t);
  assert.equal(t.format, 'webvtt');
  assert.deepEqual(t.cues, [
    { speaker: 'Alice Smith', start: 1, end: 4.5, text: 'Hello there, how are you?' },
    { speaker: 'Bob', start: 5.25, end: 7, text: "I'm fine & you?" },
  ]);
});

test('WebVTT with "Name:" prefixes, CRLF line ends and a BOM', () => {
  const t = parseTranscript('\uFEFFWEBVTT\r\n\r\n00:00:01.000 --> 00:00:02.000\r\nAlice: Hi.\r\n\r\n00:00:02.500 --> 00:00:03.000\r\nno name here\r\n');
  assert.ok(t);
  assert.equal(t.cues[0]?.speaker, 'Alice');
  assert.equal(t.cues[0]?.text, 'Hi.');
  assert.equal(t.cues[1]?.speaker, null);
  assert.equal(t.cues[1]?.text, 'no name here');
});

test('SRT with Name: prefixes and hour timestamps', () => {
  const t = parseTranscript(`1
00:00:01,000 --> 00:00:03,250
Dr. Jones: Good morning.

2
01:00:00,5 --> 01:00:02,000
Sam Lee: Morning!
Two lines.
`);
  assert.ok(t);
  assert.equal(t.format, 'srt');
  assert.equal(t.cues.length, 2);
  assert.deepEqual(t.cues[0], { speaker: 'Dr. Jones', start: 1, end: 3.25, text: 'Good morning.' });
  assert.equal(t.cues[1]?.start, 3600.5);
  assert.equal(t.cues[1]?.speaker, 'Sam Lee');
  assert.equal(t.cues[1]?.text, 'Morning! Two lines.');
});

test('JSON segments, sorted by start, numeric and null speakers', () => {
  const t = parseTranscript(JSON.stringify({
    segments: [
      { speaker: 'B', start: 2, end: 3, text: ' second ' },
      { speaker: 'A', start: 0, end: 1.5, text: 'first' },
      { speaker: null, start: 4, end: 5, text: 'unknown' },
      { speaker: 3, start: 6, end: 7 },
    ],
  }));
  assert.ok(t);
  assert.equal(t.format, 'json');
  assert.deepEqual(t.cues.map((c) => [c.speaker, c.text]), [['A', 'first'], ['B', 'second'], [null, 'unknown'], ['3', '']]);
});

test('garbage and near misses are null, never a throw', () => {
  const random = Array.from({ length: 2000 }, (_, i) => String.fromCharCode((i * 7919) % 65535)).join('');
  const cases = [
    '', '   ', 'hello world', '{', '{"segments": 3}', '{"segments": []}', '[1,2,3]', 'null',
    '{"segments":[{"start":"0","end":1,"text":"x"}]}', '{"segments":[{"start":2,"end":1,"text":"x"}]}',
    'WEBVTT\n\nno cues at all', 'WEBVTT\n\n00:00:05.000 --> 00:00:01.000\nbackwards', '1\nnot a timing line\ntext',
    'RIFF\u0000\u0000WAVEfmt ', random, '{"segments":[{"start":0,"end":1,"text":{"nested":true}}]}',
    `${'['.repeat(100000)}`,
  ];
  for (const c of cases) assert.equal(parseTranscript(c), null, JSON.stringify(c.slice(0, 40)));
  // Not a string at all (a caller bug) still does not throw.
  assert.equal(parseTranscript(undefined as unknown as string), null);
});

test('a colon in ordinary text is not taken for a speaker when it starts with a digit', () => {
  const t = parseTranscript('WEBVTT\n\n00:01.000 --> 00:02.000\n10:30 is when we meet\n');
  assert.equal(t?.cues[0]?.speaker, null);
});

test('square-bracketed descriptions are not words, in every format', () => {
  const vtt = parseTranscript('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<v Ada>[laughter] So [Ada speaking] be it.\n\n00:00:02.000 --> 00:00:03.000\n<v Bob>[Bob speaking]\n');
  assert.deepEqual(vtt?.cues.map((c) => [c.speaker, c.text]), [['Ada', 'So be it.'], ['Bob', '']]);
  const srt = parseTranscript('1\n00:00:01,000 --> 00:00:02,000\nAda: [speaking]\n');
  assert.deepEqual(srt?.cues.map((c) => [c.speaker, c.text]), [['Ada', '']]);
  const json = parseTranscript(JSON.stringify({ segments: [{ speaker: 'Ada', start: 0, end: 1, text: '[BLANK_AUDIO]' }, { speaker: 'Bob', start: 1, end: 2, text: 'a [b c' }] }));
  assert.deepEqual(json?.cues.map((c) => c.text), ['', 'a [b c'], 'an unclosed bracket is text');
});

/** SRT of the given cue texts, one second each. */
function srt(...texts: string[]): string {
  const at = (k: number) => `00:00:${String(k).padStart(2, '0')},000`;
  return texts.map((t, k) => `${k + 1}\n${at(k)} --> ${at(k + 1)}\n${t}\n`).join('\n');
}
/** WebVTT of the given cue texts, one second each. */
function vtt(...texts: string[]): string {
  const at = (k: number) => `00:00:${String(k).padStart(2, '0')}.000`;
  return `WEBVTT\n\n${texts.map((t, k) => `${at(k)} --> ${at(k + 1)}\n${t}\n`).join('\n')}`;
}
const speakersAndWords = (text: string) => parseTranscript(text)?.cues.map((c) => [c.speaker, c.text]);

test('SRT speaker conventions met in the wild: NAME:, [NAME], - NAME:, a name on its own line', () => {
  // "NAME: text" with a qualifier in brackets or parentheses, or a name in brackets.
  assert.deepEqual(speakersAndWords(srt('Dr. Smith [guest]: Welcome.', 'Anna (chair): Order, please.', '[Moderator]: Next question.', 'no name in this one')), [
    ['Dr. Smith [guest]', 'Welcome.'], ['Anna (chair)', 'Order, please.'], ['[Moderator]', 'Next question.'], [null, 'no name in this one'],
  ]);
  // "[NAME] text" on every cue of a file: the brackets name its speakers.
  assert.deepEqual(speakersAndWords(srt('[JOHN] Hello there.', '[MARY] Hi, John.', '[JOHN] How are you?')), [['JOHN', 'Hello there.'], ['MARY', 'Hi, John.'], ['JOHN', 'How are you?']]);
  // …but where only some cues start so, a bracket is a sound, as captions write them.
  assert.deepEqual(speakersAndWords(srt('[laughter] Oh, stop.', 'ANN: Really.')), [[null, 'Oh, stop.'], ['ANN', 'Really.']]);
  // "- NAME: text", the dialogue dash; two speakers in one cue name neither, and neither name is a word.
  assert.deepEqual(speakersAndWords(srt('- ANN: Ready?', '- BOB: Ready.\n- ANN: Go.', '- Just a dash.')), [['ANN', 'Ready?'], [null, 'Ready. Go.'], [null, '- Just a dash.']]);
  // "NAME:" alone on the first line, the words below it.
  assert.deepEqual(speakersAndWords(srt('ANN:\nThe words come here.', 'BOB: And mine here.')), [['ANN', 'The words come here.'], ['BOB', 'And mine here.']]);
  // Where every cue starts "who: ", each is a name, however it is spelled.
  assert.deepEqual(speakersAndWords(srt('Ann, PhD: First.', '12 Angry Men: Second.', '🌟 Star: Third: and more.')), [['Ann, PhD', 'First.'], ['12 Angry Men', 'Second.'], ['🌟 Star', 'Third: and more.']]);
});

test('what was read before is read the same: "Name:" without a space, prose with a colon, a clock', () => {
  assert.deepEqual(speakersAndWords(srt('Ann:hi', 'no name')), [['Ann', 'hi'], [null, 'no name']]);
  assert.deepEqual(speakersAndWords(srt('The plan for the day is simple: we go.', 'ok')), [[null, 'The plan for the day is simple: we go.'], [null, 'ok']]);
  assert.deepEqual(speakersAndWords(srt('10:30 is when we meet', 'Ann: fine')), [[null, '10:30 is when we meet'], ['Ann', 'fine']]);
  assert.deepEqual(speakersAndWords(srt('Ann : spaced colon', 'x')), [['Ann', 'spaced colon'], [null, 'x']]);
});

test('WebVTT voices: character references decoded in the name, two voices in a cue name neither', () => {
  assert.deepEqual(speakersAndWords(vtt('<v Q&amp;A host>Hi', '<v x &lt; y &gt; z>Hey', '<v Dr. Smith [guest]>[laughs] Yes.', '<v Ann>Hi.</v>\n<v Bob>Hello.</v>', '<v Ann>One</v> <v Ann>voice</v>')), [
    ['Q&A host', 'Hi'], ['x < y > z', 'Hey'], ['Dr. Smith [guest]', 'Yes.'], [null, 'Hi. Hello.'], ['Ann', 'One voice'],
  ]);
  // Without voices, the same prefixes as SRT.
  assert.deepEqual(speakersAndWords(vtt('Anna (chair): Order.', '- BOB: Yes.', 'plain')), [['Anna (chair)', 'Order.'], ['BOB', 'Yes.'], [null, 'plain']]);
});

test('a JSON speaker name is plain data: "<" and ">" kept, only white space collapsed', () => {
  // Before, the JSON reader dropped every "<" and ">" ("x < y > z" became "x y z", "<b>Ann</b>"
  // became "bAnn/b"): markup is a WebVTT concern, escaped where that format is written.
  const names = ['x < y > z', '<b>Ann</b>', '<v Bob>', 'a-->b', '  Q&amp;A  <host> ', '>', '<<'];
  const t = parseTranscript(JSON.stringify({ segments: names.map((speaker, k) => ({ speaker, start: k, end: k + 1, text: 'hi' })) }));
  assert.deepEqual(t?.cues.map((c) => c.speaker), ['x < y > z', '<b>Ann</b>', '<v Bob>', 'a-->b', 'Q&amp;A <host>', '>', '<<']);
  // A name of white space alone is still no name.
  assert.equal(parseTranscript('{"segments":[{"speaker":" \\t ","start":0,"end":1}]}')?.cues[0]?.speaker, null);
});
