// Which transcripts the word lists are made for (issue 33 item 4). Hedges, pronouns, VADER's
// sentiment and the LSM function-word categories are English lists: on another language they
// count nothing meaningful (a Czech transcript got a "sentiment" and hedge counts). A transcript
// is taken as English when enough of its words are common English function words that are not
// also words of other languages written in Latin script ("a", "i", "to", "on", "je" are left out:
// they are Czech, Slovak, Polish or Romance words too). English conversation holds about 35-50 %
// of these; other languages a few percent at most.
import { tokenize } from './text-metrics.ts';

const ENGLISH_MARKERS = new Set([
  'the', 'and', 'is', 'are', 'was', 'were', 'you', 'that', 'this', 'what', 'have', 'has', 'with', 'for', 'not', 'but', 'be', 'been',
  'do', 'does', 'did', "don't", "it's", "i'm", "that's", 'we', 'they', 'of', 'in', 'my', 'your', 'our', 'so', 'just', 'there',
  'can', 'will', 'would', 'could', 'should', 'know', 'think', 'yeah', 'yes', 'like', 'okay', 'well', 'it', 'he', 'she', 'me',
  'him', 'her', 'them', 'at', 'from', 'about', 'if', 'or', 'all', 'get', 'got', 'one', 'out', 'up', 'when', 'how', 'who',
  'which', 'an', 'by', 'as', 'very', 'really', 'because', 'then', 'than', 'here', 'now', 'right', 'go', 'going', 'want',
]);

/** Share of English marker words a transcript needs to be measured with the English word lists. */
export const MIN_ENGLISH_SHARE = 0.15;
/** Fewer words than this cannot tell a language: they are measured (as before) unless clearly not English. */
const MIN_WORDS_TO_TELL = 12;

/** The language the word lists apply to for these texts: 'en', or null when they are not English. */
export function lexiconLanguage(texts: readonly string[]): 'en' | null {
  const tokens = texts.flatMap((t) => tokenize(t));
  if (tokens.length === 0) return 'en';
  const share = tokens.filter((t) => ENGLISH_MARKERS.has(t)).length / tokens.length;
  if (tokens.length < MIN_WORDS_TO_TELL) return share > 0 ? 'en' : null;
  return share >= MIN_ENGLISH_SHARE ? 'en' : null;
}
