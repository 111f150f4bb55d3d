import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeLanguageMetrics, countHedges, countQuestions, functionWordProfile, tokenize } from './text-metrics.ts';
import { categoryLsm, languageStyleMatching, lsmOf } from './lsm.ts';
import { FUNCTION_WORD_CATEGORY_KEYS } from './lexicon.ts';

test('tokenize keeps contractions and lower-cases', () => {
  assert.deepEqual(tokenize("I DON'T know, it’s 5 o'clock."), ['i', "don't", 'know', "it's", '5', "o'clock"]);
});

test('questions: question marks, and openers only when the text has no punctuation', () => {
  assert.equal(countQuestions('Where were you? I was home. Really?'), 2);
  assert.equal(countQuestions('what do you think about it'), 1);
  assert.equal(countQuestions('do you like it'), 1);
  assert.equal(countQuestions('we went home'), 0);
  assert.equal(countQuestions('What a day.'), 0);
});

test('hedges count phrases once and single words', () => {
  assert.equal(countHedges(tokenize('I think it is kind of good, maybe.')), 3);
  assert.equal(countHedges(tokenize('It is good.')), 0);
});

test('language metrics of a hand-made speaker', () => {
  const m = computeLanguageMetrics([
    { speaker: 'A', start: 0, end: 6, text: 'I think we should go. Do you agree?' },
    { speaker: 'A', start: 10, end: 16, text: 'I love this wonderful plan!' },
  ]);
  assert.ok(m);
  assert.equal(m.words, 13);
  // 13 words over 12 s of cue time.
  assert.ok(Math.abs((m.wordsPerMinute ?? 0) - 65) < 1e-9);
  assert.ok(Math.abs(m.questionRate - 100 / 13) < 1e-9);
  assert.ok(Math.abs((m.hedgeRate ?? NaN) - 100 / 13) < 1e-9);
  assert.ok(Math.abs((m.firstPersonSingularRate ?? NaN) - 200 / 13) < 1e-9);
  assert.ok(Math.abs((m.firstPersonPluralRate ?? NaN) - 100 / 13) < 1e-9);
  assert.ok((m.sentiment ?? 0) > 0.3, `positive text, got ${m.sentiment}`);
  assert.deepEqual(Object.keys(m.functionWords ?? {}).sort(), [...FUNCTION_WORD_CATEGORY_KEYS].sort());
  assert.equal(computeLanguageMetrics([]), null);
  const sad = computeLanguageMetrics([{ speaker: 'B', start: 0, end: 2, text: 'This is terrible and I hate it.' }]);
  assert.ok(sad && (sad.sentiment ?? 0) < -0.3);
  assert.equal(sad?.wordsPerMinute, null, 'too little cue time for a rate');
});

test('function-word profile is a percentage of words', () => {
  const p = functionWordProfile(tokenize('the cat and a dog'));
  assert.equal(p.articles, 40);
  assert.equal(p.conjunctions, 20);
  assert.equal(p.negations, 0);
});

test('LSM formula on a hand-computed case (Ireland & Pennebaker 2010)', () => {
  assert.ok(Math.abs(categoryLsm(10, 5) - (1 - 5 / 15.0001)) < 1e-12);
  const a: Record<string, number> = {};
  const b: Record<string, number> = {};
  FUNCTION_WORD_CATEGORY_KEYS.forEach((k) => {
    a[k] = 10;
    b[k] = 10;
  });
  b.articles = 5; // 1 - 5/15.0001
  b.negations = 0; // 1 - 10/10.0001
  a.quantifiers = 0; // both zero: 1 - 0/0.0001 = 1
  b.quantifiers = 0;
  const r = languageStyleMatching(a, b);
  const expected = (7 + (1 - 5 / 15.0001) + (1 - 10 / 10.0001)) / 9;
  assert.ok(Math.abs(r.lsm - expected) < 1e-12, `${r.lsm} vs ${expected}`);
  assert.equal(r.perCategory.quantifiers, 1);
});

test('LSM of real texts: same style beats different style', () => {
  const m = (text: string) => computeLanguageMetrics([{ speaker: null, start: 0, end: 10, text }]);
  const a = m('I think that we should not go to the park because it is cold and I am tired.');
  const b = m('I feel that we could not walk to the lake because it is wet and I am sleepy.');
  const c = m('Revenue grew strongly. Margins expanded. Guidance raised. Shares rallied.');
  const ab = lsmOf(a, b)?.lsm ?? 0;
  const ac = lsmOf(a, c)?.lsm ?? 1;
  assert.ok(ab > ac + 0.3, `${ab} vs ${ac}`);
  assert.equal(lsmOf(a, null), null);
});
