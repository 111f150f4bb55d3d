// The `magic_hint` resolver (decisions §7): a free-text description of a speaker, resolved
// without any external service. Each recogniser below reads one kind of clue (names and tags,
// ordinals, times, amounts of talk, voice, conversational role) and votes for a speaker with a
// weight in (0, 1]; a recogniser whose clue is present but not decisive reports why instead.
// The hint resolves when the votes single out one speaker; otherwise it is a miss.
import type { MediaAnalysis, SpeakerMetrics } from '../types.ts';
import { speechInRange } from '../behavior/stats.ts';
import { parseHintTimes } from './hint-times.ts';

export interface HintContext {
  speakerEntityIds: (string | null)[];
  entities: Record<string, { label: string | null; tags: string[] }>;
}

export type HintResult = { ok: true; speakerIndex: number; confidence: number; via: string[] } | { ok: false; reason: string };

interface Vote {
  index: number;
  weight: number;
  via: string;
}
type Outcome = Vote[] | string | null;

/** Votes below this total, or a runner-up within this share of the winner, are not confident. */
const MIN_TOTAL = 0.5;
const MAX_RUNNER_UP_SHARE = 0.75;
/** Smallest differences that make "higher voice", "louder", "faster", "talks the most" decisive. */
const MIN_PITCH_GAP_ST = 1.5;
const MIN_LOUDNESS_GAP_DB = 2;
const MIN_RATE_GAP = 0.3;
const MIN_AMOUNT_RATIO = 1.1;
const MIN_QUESTION_RATIO = 1.5;

/** Words the other recognisers own: never fuzzy-matched to names ("most" is not "Moss"). */
const VOCABULARY = new Set(
  `the a an of who one that is with speaker person voice talks talk speaks speak most least more less first second third
   fourth fifth last higher lower high low deeper deepest louder loudest softer faster slower around about at near
   interviewer host guest questions asks minute minutes seconds between and from to man woman guy lady`.split(/\s+/),
);

export function normaliseHint(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[’']/g, '')
    .replace(/[^\p{L}\p{N}:.\s-]/gu, ' ')
    .replace(/-/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function levenshtein(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    let prev = row[0] ?? 0;
    row[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const tmp = row[j] ?? 0;
      row[j] = Math.min((row[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length] ?? 0;
}

/**
 * How well a name or tag matches the hint: 1 whole phrase, 0.8 a word, 0.6 a near-spelling.
 * Words in `shared` (in several speakers' names, like a family name) identify nobody alone.
 */
function phraseMatch(hint: string, hintTokens: readonly string[], phrase: string, shared: ReadonlySet<string>): number {
  const p = normaliseHint(phrase);
  if (p === '') return 0;
  if (` ${hint} `.includes(` ${p} `)) return 1;
  let best = 0;
  for (const word of p.split(' ')) {
    if (word.length < 3 || VOCABULARY.has(word) || shared.has(word)) continue;
    for (const t of hintTokens) {
      if (t === word) best = Math.max(best, 0.8);
      else if (!VOCABULARY.has(t) && word.length >= 4 && t.length >= 4) {
        const d = levenshtein(t, word);
        if (d <= (word.length >= 8 ? 2 : 1)) best = Math.max(best, 0.6);
      }
    }
  }
  return best;
}

function byName(media: MediaAnalysis, hint: string, ctx: HintContext): Outcome {
  const tokens = hint.split(' ');
  const phrases = media.speakers.map((s, i) => {
    const entityId = ctx.speakerEntityIds[i];
    const entity = entityId ? ctx.entities[entityId] : undefined;
    return { names: [s.label, entity?.label].filter((n): n is string => !!n), tags: entity?.tags ?? [] };
  });
  const owners = new Map<string, Set<number>>();
  phrases.forEach((p, i) => {
    for (const phrase of [...p.names, ...p.tags]) {
      for (const w of normaliseHint(phrase).split(' ')) owners.set(w, (owners.get(w) ?? new Set()).add(i));
    }
  });
  const shared = new Set([...owners].filter(([, o]) => o.size > 1).map(([w]) => w));
  const scores = phrases.map((p) => {
    let score = Math.max(0, ...p.names.map((n) => phraseMatch(hint, tokens, n, shared)));
    // A tag describes a role more loosely than a name identifies a person.
    for (const tag of p.tags) score = Math.max(score, 0.9 * phraseMatch(hint, tokens, tag, shared));
    return score;
  });
  // Folds, not Math.max(...): a transcript may name thousands of speakers.
  const top = scores.reduce((m, x) => Math.max(m, x), 0);
  if (top === 0) return null;
  // Only the best match counts: "Ann" the whole name beats "Anna" the near spelling.
  return scores.flatMap((score, index) => (score === top ? [{ index, weight: score, via: 'name or tag' }] : []));
}

const ORDINALS: Record<string, number> = {
  first: 0, '1st': 0, second: 1, '2nd': 1, third: 2, '3rd': 2, fourth: 3, '4th': 3, fifth: 4, '5th': 4,
  sixth: 5, '6th': 5, seventh: 6, '7th': 6, eighth: 7, '8th': 7, ninth: 8, '9th': 8, tenth: 9, '10th': 9,
};

function byOrdinal(media: MediaAnalysis, hint: string): Outcome {
  const n = media.speakers.length;
  if (/\b(second to last|penultimate|next to last)\b/.test(hint)) {
    return n >= 2 ? [{ index: n - 2, weight: 1, via: 'ordinal' }] : 'there is no second-to-last speaker';
  }
  // "second" after a number is a unit ("90 second mark"); "last minute" is a time, not a speaker.
  const m = /(?<![\d.]\s?)\b(first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th|sixth|6th|seventh|7th|eighth|8th|ninth|9th|tenth|10th|last)\b(?!\s+(minute|minutes|seconds|second|part|half|word|words|question|questions|bit)\b)/.exec(hint);
  if (!m?.[1]) return null;
  const index = m[1] === 'last' ? n - 1 : (ORDINALS[m[1]] ?? -1);
  if (index < 0 || index >= n) return `there is no ${m[1]} speaker (the media has ${n})`;
  return [{ index, weight: 1, via: 'ordinal' }];
}

/**
 * "speaker 2", "speaker #2": the speaker shown as "Speaker 2" (decisions §17), index 1, because
 * every screen and export numbers speakers from 1 and a hint is typed by someone reading them.
 * Only "speaker index 2" names the API's 0-based speakerIndex, the field's own name.
 */
function bySpeakerNumber(media: MediaAnalysis, hint: string): Outcome {
  const m = /\bspeaker\s*(#|no\.?\s*|number\s*|index\s*)?(\d+)\b(?!\s*(?:s|sec|secs|seconds?|m|min|mins|minutes?)\b)/.exec(hint);
  if (!m?.[2]) return null;
  const n = media.speakers.length;
  const written = Number(m[2]);
  if (m[1]?.startsWith('index')) {
    if (written >= n) return `there is no speaker index ${written} (the media has ${n}, indexes 0 to ${n - 1})`;
    return [{ index: written, weight: 1, via: 'speaker index' }];
  }
  if (written < 1 || written > n) return `there is no Speaker ${written} (the media has ${n}, shown as Speaker 1 to Speaker ${n})`;
  return [{ index: written - 1, weight: 1, via: 'speaker number' }];
}

function byTime(media: MediaAnalysis, hint: string): Outcome {
  const spec = parseHintTimes(hint);
  if (!spec) return null;
  const { from, to } = spec;
  if (from > media.durationSec) return `${from} s is past the end of the media`;
  const speech = speechInRange(media.segments, media.speakers.length, from, to);
  const total = speech.reduce((a, b) => a + b, 0);
  if (total <= 0) return `nobody speaks between ${from} s and ${to} s`;
  const best = speech.indexOf(speech.reduce((m, x) => Math.max(m, x), -Infinity));
  const share = (speech[best] ?? 0) / total;
  if (share < 0.6) return `several speakers talk between ${from} s and ${to} s`;
  return [{ index: best, weight: share, via: 'time' }];
}

/** The speaker with the extreme value of a measure, when it stands out by `decisive`. */
function extreme(
  metrics: readonly SpeakerMetrics[],
  value: (m: SpeakerMetrics) => number | null,
  highest: boolean,
  decisive: (best: number, runnerUp: number) => boolean,
  what: string,
): Outcome {
  const ranked = metrics
    .map((m, index) => ({ index, v: value(m) }))
    .filter((x): x is { index: number; v: number } => x.v !== null)
    .sort((a, b) => (highest ? b.v - a.v : a.v - b.v));
  const [best, runnerUp] = ranked;
  if (!best) return `no speaker has a measured ${what}`;
  if (runnerUp && !decisive(best.v, runnerUp.v)) return `the speakers are too close in ${what} to tell apart`;
  if (!runnerUp && metrics.length > 1) return `only one speaker has a measured ${what}`;
  return [{ index: best.index, weight: 1, via: what }];
}

const TALK = String.raw`(talk|talks|talking|talked|speak|speaks|speaking|spoke|says|said|talker|talkative|chatty|words|speech|airtime)`;

function byAmount(media: MediaAnalysis, hint: string): Outcome {
  const metrics = media.speakers.map((s) => s.metrics);
  if (/\binterrupt/.test(hint)) {
    const most = /\b(most|more|often)\b/.test(hint);
    const least = /\b(least|less|never|rarely)\b/.test(hint);
    if (most === least) return null;
    return extreme(metrics, (m) => m.interruptionsMade, most, (a, b) => a !== b, 'interruptions');
  }
  const talk = new RegExp(String.raw`\b${TALK}\b`).test(hint);
  const most = (talk && /\b(most|more)\b/.test(hint)) || /\b(dominant|dominates|main speaker|talkative|chattiest|does most of the talking)\b/.test(hint);
  const least = talk && /\b(least|less|fewest|barely|hardly)\b/.test(hint);
  if (most === least) return null;
  const amounts = media.speakers.map((s) => ({ ...s.metrics, speechSec: s.speechSec }));
  return extreme(amounts, (m) => m.speechSec, most, (a, b) => (most ? a >= MIN_AMOUNT_RATIO * b : b >= MIN_AMOUNT_RATIO * a), 'amount of speech');
}

function byVoice(media: MediaAnalysis, hint: string): Outcome {
  const metrics = media.speakers.map((s) => s.metrics);
  const outcomes: Outcome[] = [];
  const high = /\b(higher|highest|high pitched|higher pitched|squeakier|shriller)\b/.test(hint);
  const low = /\b(lower|lowest|deeper|deepest|low pitched|lower pitched|bass)\b/.test(hint) && !/\b(talks|speaks) (less|the least)\b/.test(hint);
  if (high !== low) outcomes.push(extreme(metrics, (m) => m.pitchMedianSt, high, (a, b) => Math.abs(a - b) >= MIN_PITCH_GAP_ST, 'pitch'));
  const loud = /\b(louder|loudest)\b/.test(hint);
  const soft = /\b(softer|softest|quieter voice|quietest voice)\b/.test(hint);
  if (loud !== soft) outcomes.push(extreme(metrics, (m) => m.loudnessMeanDb, loud, (a, b) => Math.abs(a - b) >= MIN_LOUDNESS_GAP_DB, 'loudness'));
  const fast = /\b(faster|fastest)\b/.test(hint);
  const slow = /\b(slower|slowest)\b/.test(hint);
  if (fast !== slow) outcomes.push(extreme(metrics, (m) => m.speakingRateSylPerSec, fast, (a, b) => Math.abs(a - b) >= MIN_RATE_GAP, 'speaking rate'));
  return merge(outcomes);
}

function byRole(media: MediaAnalysis, hint: string): Outcome {
  const asker = /\b(interviewer|interviewing|host|moderator|questioner|facilitator|presenter|asks (the most |most |more )?questions|asking (the )?questions)\b/.test(hint);
  const answerer = /\b(interviewee|guest|candidate|respondent|answers (the )?questions|answering|being interviewed)\b/.test(hint);
  if (asker === answerer) return null;
  const metrics = media.speakers.map((s) => s.metrics);
  if (!metrics.some((m) => m.language && m.language.words > 0)) return 'roles need a transcript, and this media has none';
  return extreme(metrics, (m) => (m.language && m.language.words > 0 ? m.language.questionRate : null), asker,
    (a, b) => (asker ? a > 0 && a >= MIN_QUESTION_RATIO * b : b >= MIN_QUESTION_RATIO * a && b > 0), 'question rate');
}

function merge(outcomes: readonly Outcome[]): Outcome {
  const votes = outcomes.filter((o): o is Vote[] => Array.isArray(o)).flat();
  if (votes.length > 0) return votes;
  const reasons = outcomes.filter((o): o is string => typeof o === 'string');
  return reasons.length > 0 ? reasons.join('; ') : null;
}

export function resolveMagicHint(media: MediaAnalysis, rawHint: string, ctx: HintContext): HintResult {
  const hint = normaliseHint(rawHint);
  if (hint === '') return { ok: false, reason: 'the hint is empty' };
  if (media.speakers.length === 0) return { ok: false, reason: 'the media has no speakers' };
  const names = byName(media, hint, ctx);
  // An explicit name or tag outranks a role guessed from question rates ("the host" tagged host).
  const role = Array.isArray(names) ? null : byRole(media, hint);
  // Same for a number: a transcript label "Speaker 2" names a person, whatever its index.
  const number = Array.isArray(names) ? null : bySpeakerNumber(media, hint);
  const outcomes = [names, byOrdinal(media, hint), number, byTime(media, hint), byAmount(media, hint), byVoice(media, hint), role];
  const votes = outcomes.filter((o): o is Vote[] => Array.isArray(o)).flat();
  const reasons = outcomes.filter((o): o is string => typeof o === 'string');
  if (votes.length === 0) {
    return { ok: false, reason: reasons.length > 0 ? `hint "${rawHint}": ${reasons.join('; ')}` : `no speaker matches the hint "${rawHint}"` };
  }
  const totals = new Map<number, number>();
  for (const v of votes) totals.set(v.index, (totals.get(v.index) ?? 0) + v.weight);
  const ranked = [...totals.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  const [winner, runnerUp] = ranked;
  if (!winner || winner[1] < MIN_TOTAL) return { ok: false, reason: `no speaker matches the hint "${rawHint}" with confidence` };
  if (runnerUp && runnerUp[1] >= MAX_RUNNER_UP_SHARE * winner[1]) {
    return { ok: false, reason: `the hint "${rawHint}" fits speakers ${winner[0]} and ${runnerUp[0]} alike` };
  }
  const sum = ranked.reduce((s, [, w]) => s + w, 0);
  return {
    ok: true,
    speakerIndex: winner[0],
    confidence: winner[1] / sum,
    via: [...new Set(votes.filter((v) => v.index === winner[0]).map((v) => v.via))],
  };
}
