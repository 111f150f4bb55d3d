// Language Style Matching (Ireland & Pennebaker 2010; Ireland et al. 2011): per function-word
// category c, LSM_c = 1 − |p1 − p2| / (p1 + p2 + 0.0001) with p the percentage of words in c;
// the overall LSM is the mean over the nine categories, in [0, 1].
import type { LanguageMetrics } from '../types.ts';
import { FUNCTION_WORD_CATEGORY_KEYS } from './lexicon.ts';

export interface LsmResult {
  /** Mean of the nine category scores, 0..1. */
  lsm: number;
  perCategory: Record<string, number>;
}

export function categoryLsm(p1: number, p2: number): number {
  return 1 - Math.abs(p1 - p2) / (p1 + p2 + 0.0001);
}

export function languageStyleMatching(a: Record<string, number>, b: Record<string, number>): LsmResult {
  const perCategory: Record<string, number> = {};
  let sum = 0;
  for (const key of FUNCTION_WORD_CATEGORY_KEYS) {
    const value = categoryLsm(a[key] ?? 0, b[key] ?? 0);
    perCategory[key] = value;
    sum += value;
  }
  return { lsm: sum / FUNCTION_WORD_CATEGORY_KEYS.length, perCategory };
}

/** LSM of two speakers' language metrics; null when either has no words, or was not measured in English. */
export function lsmOf(a: LanguageMetrics | null, b: LanguageMetrics | null): LsmResult | null {
  if (!a || !b || a.words === 0 || b.words === 0 || !a.functionWords || !b.functionWords) return null;
  return languageStyleMatching(a.functionWords, b.functionWords);
}
