// Language measures of one speaker from their transcript cues (issue 3 item 3). Rates are per 100
// words so that speakers with little text stay comparable; function-word shares are percentages
// of words, as LIWC reports them and as Ireland & Pennebaker's LSM formula was defined on.
import vader from 'vader-sentiment';
import type { LanguageMetrics, TranscriptCue } from '../types.ts';
import {
  FIRST_PERSON_PLURAL,
  FIRST_PERSON_SINGULAR,
  FUNCTION_WORD_CATEGORIES,
  FUNCTION_WORD_CATEGORY_KEYS,
  HEDGE_PHRASES,
  HEDGE_WORDS,
  QUESTION_OPENERS,
} from './lexicon.ts';

/** Below this much cue time, words per minute is not meaningful. */
const MIN_WPM_SECONDS = 5;

const WH_WORDS = new Set(['who', 'what', 'when', 'where', 'why', 'how', 'which', 'whose', 'whom']);
const SUBJECTS = new Set(['i', 'you', 'we', 'they', 'he', 'she', 'it', 'that', 'this', 'there', 'anyone', 'someone']);

/** Lower-case word tokens; apostrophes inside words are kept ("don't", "i'm"). */
export function tokenize(text: string): string[] {
  const normalised = text.toLowerCase().replace(/[’‘`]/g, "'");
  return normalised.match(/[\p{L}\p{N}]+(?:'[\p{L}]+)*/gu) ?? [];
}

/** Count of questions in a text: sentences ending in "?"; without any end marks, a cue-level guess. */
export function countQuestions(text: string): number {
  const marks = text.match(/\?+/g)?.length ?? 0;
  if (marks > 0 || /[.!]/.test(text)) return marks;
  const tokens = tokenize(text);
  const first = tokens[0];
  const second = tokens[1];
  if (first === undefined) return 0;
  if (WH_WORDS.has(first) && tokens.length > 1) return 1;
  if (QUESTION_OPENERS.has(first) && !WH_WORDS.has(first) && second !== undefined && SUBJECTS.has(second)) return 1;
  return 0;
}

export function countHedges(tokens: readonly string[]): number {
  let count = 0;
  let i = 0;
  while (i < tokens.length) {
    const phrase = HEDGE_PHRASES.find((p) => p.every((w, k) => tokens[i + k] === w));
    if (phrase) {
      count += 1;
      i += phrase.length;
      continue;
    }
    if (HEDGE_WORDS.has(tokens[i] ?? '')) count += 1;
    i += 1;
  }
  return count;
}

/** Percentage of tokens in each of the nine LSM categories. */
export function functionWordProfile(tokens: readonly string[]): Record<string, number> {
  const profile: Record<string, number> = {};
  for (const key of FUNCTION_WORD_CATEGORY_KEYS) {
    const set = FUNCTION_WORD_CATEGORIES[key];
    const hits = tokens.reduce((n, t) => n + (set.has(t) ? 1 : 0), 0);
    profile[key] = tokens.length > 0 ? (100 * hits) / tokens.length : 0;
  }
  return profile;
}

/** VADER compound score of a text in [-1, 1] (Hutto & Gilbert 2014). */
export function sentimentOf(text: string): number {
  if (text.trim() === '') return 0;
  return vader.SentimentIntensityAnalyzer.polarity_scores(text).compound;
}

/** Union length of the cues' time spans, seconds (overlapping cues are not double counted). */
function cueTime(cues: readonly TranscriptCue[]): number {
  const spans = cues.map((c) => [c.start, c.end] as const).sort((a, b) => a[0] - b[0]);
  let total = 0;
  let curStart = -Infinity;
  let curEnd = -Infinity;
  for (const [s, e] of spans) {
    if (s > curEnd) {
      if (curEnd > curStart) total += curEnd - curStart;
      curStart = s;
      curEnd = e;
    } else curEnd = Math.max(curEnd, e);
  }
  if (curEnd > curStart) total += curEnd - curStart;
  return total;
}

/**
 * Language measures of one speaker's cues; null when there are no cues at all. `lexicon` is the
 * transcript's language for the word lists (lexicon-language.ts): null leaves the lexical
 * measures null, not measured.
 */
export function computeLanguageMetrics(cues: readonly TranscriptCue[], lexicon: 'en' | null = 'en'): LanguageMetrics | null {
  if (cues.length === 0) return null;
  const allTokens: string[] = [];
  let questions = 0;
  let sentimentSum = 0;
  let sentimentWeight = 0;
  for (const cue of cues) {
    const tokens = tokenize(cue.text);
    // A loop, not push(...tokens): one cue may hold hundreds of thousands of words, more
    // arguments than the stack holds.
    for (const t of tokens) allTokens.push(t);
    questions += countQuestions(cue.text);
    if (tokens.length > 0) {
      // Weighted by words so that a long answer counts more than a one-word "okay".
      sentimentSum += sentimentOf(cue.text) * tokens.length;
      sentimentWeight += tokens.length;
    }
  }
  const words = allTokens.length;
  const per100 = (n: number): number => (words > 0 ? (100 * n) / words : 0);
  const seconds = cueTime(cues);
  const fps = allTokens.filter((t) => FIRST_PERSON_SINGULAR.has(t)).length;
  const fpp = allTokens.filter((t) => FIRST_PERSON_PLURAL.has(t)).length;
  const base = { words, wordsPerMinute: seconds >= MIN_WPM_SECONDS ? words / (seconds / 60) : null, questionRate: per100(questions) };
  if (lexicon === null) {
    return { ...base, lexicon: null, hedgeRate: null, firstPersonSingularRate: null, firstPersonPluralRate: null, sentiment: null, functionWords: null };
  }
  return {
    ...base,
    lexicon,
    hedgeRate: per100(countHedges(allTokens)),
    firstPersonSingularRate: per100(fps),
    firstPersonPluralRate: per100(fpp),
    sentiment: sentimentWeight > 0 ? sentimentSum / sentimentWeight : 0,
    functionWords: functionWordProfile(allTokens),
  };
}
