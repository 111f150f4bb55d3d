// Issue 33 item 4: the English word lists (hedges, pronouns, sentiment, function words) are
// applied only to English transcripts; another language is "not measured (English only)", never
// a number computed with the wrong words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lexiconLanguage } from './lexicon-language.ts';
import { computeLanguageMetrics } from './text-metrics.ts';
import { aggregateLanguage, computeSpeakerMetrics } from '../behavior/speaker-metrics.ts';
import { languageText } from '../documents/blocks.ts';
import { lsmOf } from './lsm.ts';
import type { MemberEvidence } from '../documents/types.ts';

const CZECH = [
  'Dobrý den, jak se máte? Já se mám docela dobře, děkuji.',
  'Možná bychom mohli začít tím projektem, o kterém jsme mluvili minulý týden.',
  'Ano, to je pravda. Myslím, že to bude trvat asi dva měsíce, ale nejsem si jistý.',
  'Tak to je skvělé, já jsem s tím velmi spokojená a těším se na další schůzku.',
];
const ENGLISH = [
  'Good morning, how are you doing today? I think we should start with the project.',
  'Yeah, maybe we could look at the numbers first, I guess that would help us.',
  'That is a good idea. I am really happy with how it went last week.',
];

test('English transcripts are measured with the word lists; Czech, German or Spanish ones are not', () => {
  assert.equal(lexiconLanguage(ENGLISH), 'en');
  assert.equal(lexiconLanguage(CZECH), null);
  assert.equal(lexiconLanguage(['Guten Morgen, wie geht es Ihnen? Ich glaube, wir sollten mit dem Projekt anfangen, vielleicht morgen.']), null);
  assert.equal(lexiconLanguage(['Buenos días, ¿cómo está usted? Creo que deberíamos empezar con el proyecto, quizás mañana por la tarde.']), null);
  assert.equal(lexiconLanguage(['Okay.']), 'en', 'a few English words are English');
});

test('a Czech speaker: words, pace and questions measured; hedges, pronouns, sentiment and function words null', () => {
  const cues = CZECH.map((text, i) => ({ speaker: 'Jana', start: i * 5, end: i * 5 + 4.5, text }));
  const m = computeLanguageMetrics(cues, lexiconLanguage(CZECH));
  assert.ok(m);
  assert.ok(m.words > 40);
  assert.ok(m.questionRate > 0);
  assert.deepEqual([m.lexicon, m.hedgeRate, m.firstPersonSingularRate, m.firstPersonPluralRate, m.sentiment, m.functionWords], [null, null, null, null, null, null]);
  const en = computeLanguageMetrics(ENGLISH.map((text, i) => ({ speaker: 'Ann', start: i * 5, end: i * 5 + 4.5, text })));
  assert.equal(en?.lexicon, 'en');
  assert.equal(lsmOf(m, en), null, 'no language style matching across the English lists');
  // An entity heard in both: the lexical measures come from the English recordings only.
  const both = aggregateLanguage([m, en]);
  assert.equal(both?.hedgeRate, en?.hedgeRate);
  assert.equal(both?.words, (m.words) + (en?.words ?? 0));
});

test('the speaker metrics of a Czech transcript, and the document says "not measured (English only)"', () => {
  const cues = CZECH.map((text, i) => ({ speaker: 'Jana', start: i * 5, end: i * 5 + 4.5, text }));
  const segments = cues.map((c) => ({ speaker: 0, start: c.start, end: c.end }));
  const [metrics] = computeSpeakerMetrics({ durationSec: 20, segments, turns: [], acoustic: [], transcript: { format: 'json', cues }, labels: ['Jana'] });
  assert.ok(metrics?.language);
  assert.equal(metrics.language.sentiment, null);
  assert.equal(metrics.language.hedgeRate, null);
  const text = languageText({ name: 'Jana', transcribedMediaCount: 1, metrics } as unknown as MemberEvidence).content;
  assert.match(text, /not measured \(English only/);
  assert.doesNotMatch(text, /Sentiment/);
});
