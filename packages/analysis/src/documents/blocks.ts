// Blocks shared by matching and report documents: a member's profile cards, the language text
// (or the statement that there is none), profile-based growth advice and the method section.
// All figures come from the evidence object through the helpers of format.ts.
import { FUNCTION_WORD_CATEGORY_NAMES } from '../language/lexicon.ts';
import type { FunctionWordCategory } from '../language/lexicon.ts';
import { ICONS } from './icons.ts';
import type { IconKey } from './icons.ts';
import { DOCUMENT_CONSTANTS } from './evidence.ts';
import { count, duration, fixed, measured, percent } from './format.ts';
import type { Block, CardBlock, MatchingEvidence, MemberEvidence, TextBlock } from './types.ts';

export function card(icon: IconKey, title: string, content: string): CardBlock {
  return { type: 'card', title, content, icon: ICONS[icon] };
}

export function gridColumns(n: number): 2 | 3 | 4 {
  return n <= 2 ? 2 : n === 3 ? 3 : n % 3 === 0 ? 3 : n === 4 ? 4 : n % 2 === 0 ? 2 : 3;
}

export function speechCard(m: MemberEvidence): CardBlock {
  return card('speech', 'Speech', `${duration(m.metrics.speechSec)} of speech in ${count(m.mediaCount, 'recording')}; average talk share ${percent(m.metrics.talkShare)}.`);
}

export function turnsCard(m: MemberEvidence): CardBlock {
  const x = m.metrics;
  return card('turns', 'Turns', `${count(x.turns, 'turn')}; median ${measured(x.medianTurnSec, 1, 's')}, longest ${duration(x.longestTurnSec)}.`);
}

/** Why interruptions, backchannels and overlap can be absent: said the same way wherever they are. */
export const OVERLAP_NOT_MEASURED = 'measured from the audio, or, where a transcript guides the speakers, from its cues when they show overlapping speech timed to within about 0.2 s';

export function turnTakingCard(m: MemberEvidence): CardBlock {
  const x = m.metrics;
  const gap = `Median gap before taking the floor ${measured(x.medianGapBeforeTurnSec, 2, 's')}`;
  // From the audio, overlap is measured (the segmentation hears two voices at once); a guiding
  // transcript with no overlapping cues or loose ones cannot show it (overlapCounting), and an
  // analysis cached before issue 38 had one speaker per frame: not measured, not zero.
  if (x.interruptionsMade === null || x.interruptionsReceived === null || x.backchannels === null || x.overlapSec === null)
    return card('turnTaking', 'Turn-taking', `${gap}; interruptions, backchannels and overlapped speech not measured (${OVERLAP_NOT_MEASURED}).`);
  return card('turnTaking', 'Turn-taking',
    `${gap}; ${count(x.interruptionsMade, 'interruption')} made and ${x.interruptionsReceived} received; ${count(x.backchannels, 'backchannel')}; ${fixed(x.overlapSec, 1)} s of overlapped speech.`);
}

export function paceCard(m: MemberEvidence): CardBlock {
  const x = m.metrics;
  return card('pace', 'Pace',
    `Speaking rate ${measured(x.speakingRateSylPerSec, 1, 'syllables/s')}, articulation rate ${measured(x.articulationRateSylPerSec, 1, 'syllables/s')}; ${measured(x.pausesPerMin, 1, 'pauses per minute of speech')}, median pause ${measured(x.medianPauseSec, 2, 's')}.`);
}

export function voiceCard(m: MemberEvidence): CardBlock {
  const x = m.metrics;
  return card('pitch', 'Voice',
    `Pitch median ${measured(m.pitchMedianHz, 0, 'Hz')}; range ${measured(x.pitchRangeSt, 1, 'semitones')}, variability ${measured(x.pitchVariabilitySt, 1, 'semitones')}.`);
}

export function loudnessCard(m: MemberEvidence): CardBlock {
  const x = m.metrics;
  return card('loudness', 'Loudness', `Mean ${measured(x.loudnessMeanDb, 1, 'dBFS')}, variability ${measured(x.loudnessVariabilityDb, 1, 'dB')}.`);
}

export function profileCards(m: MemberEvidence): CardBlock[] {
  return [speechCard(m), turnsCard(m), turnTakingCard(m), paceCard(m), voiceCard(m), loudnessCard(m)];
}

export function languageText(m: MemberEvidence, title: string | null = 'Language'): TextBlock {
  const block = languageContent(m);
  return title ? { type: 'text', title, content: block } : { type: 'text', content: block };
}

function languageContent(m: MemberEvidence): string {
  const l = m.metrics.language;
  if (!l && m.transcribedMediaCount > 0) {
    return `A transcript was attached, but none of its lines could be attributed to ${m.name} with confidence, so the language measures (words per minute, questions, hedges, pronouns, sentiment and function words) are absent.`;
  }
  if (!l) {
    return `No transcript was attached to the recordings of ${m.name}, so the language measures (words per minute, questions, hedges, pronouns, sentiment and function words) are absent.`;
  }
  const head = `From transcripts of ${count(m.transcribedMediaCount, 'recording')}: ${count(l.words, 'word')}, ${measured(l.wordsPerMinute, 0, 'words per minute')}. `;
  if (l.hedgeRate === null || l.firstPersonSingularRate === null || l.firstPersonPluralRate === null || l.sentiment === null || !l.functionWords) {
    // Issue 33 item 4: the word lists are English; another language is not measured with them.
    return `${head}Per 100 words: ${fixed(l.questionRate, 1)} questions. Hedges, pronouns, sentiment and function words: not measured (English only: the transcript is not in English).`;
  }
  const top = Object.entries(l.functionWords)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([k, v]) => `${FUNCTION_WORD_CATEGORY_NAMES[k as FunctionWordCategory] ?? k} ${fixed(v, 1)}%`)
    .join(', ');
  return (
      head +
      `Per 100 words: ${fixed(l.questionRate, 1)} questions, ${fixed(l.hedgeRate, 1)} hedges, ${fixed(l.firstPersonSingularRate, 1)} "I" words and ${fixed(l.firstPersonPluralRate, 1)} "we" words. ` +
      `Sentiment ${fixed(l.sentiment, 2)} (VADER compound, negative to positive). Most used function words: ${top}.`
  );
}

/** Growth advice from a member's own profile against conversational norms. */
export function profileGrowth(m: MemberEvidence, covered: ReadonlySet<string> = new Set()): CardBlock[] {
  const c = DOCUMENT_CONSTANTS;
  const x = m.metrics;
  const out: CardBlock[] = [];
  if (!covered.has('responsiveness') && x.medianGapBeforeTurnSec !== null && x.medianGapBeforeTurnSec > c.longGapSec) {
    out.push(card('growth', 'Answer a little sooner',
      `The median gap of ${m.name} before taking the floor is ${fixed(x.medianGapBeforeTurnSec, 2)} s, against about ${fixed(c.typicalGapSec, 1)} s in everyday conversation; quicker replies read as engagement.`));
  }
  if (covered.has('floorBalance')) {
    // The pair advice already speaks about the floor.
  } else if (x.talkShare > c.dominantShare) {
    out.push(card('growth', 'Leave more room', `${m.name} holds ${percent(x.talkShare)} of the talk time on average; asking a question and letting the answer run balances the floor.`));
  } else if (x.talkShare < c.quietShare && m.metrics.speechSec > 0) {
    out.push(card('growth', 'Take the floor more', `${m.name} holds ${percent(x.talkShare)} of the talk time on average; sharing a view early makes the exchange two-sided.`));
  }
  if (!covered.has('interruptions') && m.interruptionsPerMin !== null && m.interruptionsPerMin > c.frequentInterruptionsPerMin) {
    out.push(card('growth', 'Let turns finish', `${m.name} interrupts ${fixed(m.interruptionsPerMin, 1)} times per minute of own speech; waiting for the end of a turn keeps the other speaker engaged.`));
  }
  if (x.language && x.language.hedgeRate !== null && x.language.hedgeRate > c.frequentHedgesPer100Words) {
    out.push(card('growth', 'Speak with more certainty', `${m.name} uses ${fixed(x.language.hedgeRate, 1)} hedges per 100 words; fewer "maybe" and "I guess" makes points land.`));
  }
  return out;
}

function dataLine(m: MemberEvidence): string {
  return `${m.name}: ${duration(m.metrics.speechSec)} of speech in ${count(m.mediaCount, 'recording')}, ${m.transcribedMediaCount} with a transcript; profile confidence ${percent(m.profileConfidence)}${trustClause(m)}.`;
}

/** Why a profile's confidence is held down by its speakers (decisions §20), or nothing. */
function trustClause(m: MemberEvidence): string {
  const trust = m.profileTrust ?? 1;
  if (trust >= DOCUMENT_CONSTANTS.lowTrust) return '';
  // A fold, not Math.min(...): a member's appearances (one per recording) are not bounded.
  const worst = m.appearances.reduce<number | null>((w, a) => (a.separation === null ? w : Math.min(w ?? Infinity, a.separation)), null);
  const why = worst !== null && worst < 1
    ? `as little as ${percent(worst)} of the speech windows lie nearer this speaker's voice than another's`
    : 'how cleanly the voices separate was not recorded for these recordings';
  return ` (held down by speaker trust ${percent(trust)}: the speakers of these recordings may be mixed, ${why})`;
}

/** "A", "A and B", "A, B and C". */
function listOf(names: string[]): string {
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1] ?? ''}`;
}

export function methodBlocks(e: MatchingEvidence): Block[] {
  const members = [e.target, ...e.group];
  const data: TextBlock = { type: 'text', title: 'Data used', content: members.map(dataLine).join(' ') };
  const blocks: Block[] = [{ type: 'illustration', variant: 'analysis' }, data];
  if (e.pairs.length > 0) {
    blocks.push({
      type: 'text',
      title: 'Confidence',
      content: e.pairs
        .map((p) => `${e.target.name} and ${p.name}: confidence ${percent(p.overall.confidence)}, ${p.met ? `from ${count(p.sharedMediaCount, 'shared recording')}` : 'from their separate recordings (never recorded together)'}.`)
        .join(' ') + ' Confidence grows with the speech, exchanges and words each score rests on, times the speaker trust: how sure the analysis is of the speakers (the count of speakers, and how cleanly each voice separates from the others); the overall score weights each component by it.' +
        e.pairs.filter((p) => (p.trust ?? 1) < DOCUMENT_CONSTANTS.lowTrust).map((p) => ` For ${e.target.name} and ${p.name}, the speakers may be mixed with other voices (speaker trust ${percent(p.trust)}), so no confidence of theirs exceeds ${percent(p.trust)}.`).join(''),
    });
  }
  const uncertain = members.filter((m) => m.appearances.some((a) => a.countUncertain)).map((m) => m.name);
  if (uncertain.length > 0) {
    blocks.push({
      type: 'text',
      title: 'Speaker count',
      content:
        `In recordings of ${listOf(uncertain)}, the number of speakers was found from the voices alone and may be wrong: two people may be counted as one, or one as two, and every figure of the people in them rests on it. ` +
        'Give the number of speakers of those recordings (the speaker-count hint, on upload or with a re-analysis) to be sure.',
    });
  }
  const noTranscript = members.filter((m) => !m.metrics.language).map((m) => m.name);
  const names = listOf(noTranscript);
  // Decisions §19: figures from a transcript on its own rest on its cues; its voice was never heard.
  const textOnly = members.filter((m) => m.appearances.some((a) => a.noAudio));
  const allText = textOnly.length === members.length && members.every((m) => m.appearances.every((a) => a.noAudio));
  const source = allText
    ? "Speakers, turns and gaps come from the transcripts' cues alone (no audio): their names and times decide every figure, and pitch, loudness and syllable rate are not measured (no audio). "
    : 'Speakers, turns, pitch, loudness and syllable rate are measured from the audio by the engine itself; diarization errors move every figure. ' +
      (textOnly.length > 0
        ? `For ${listOf(textOnly.map((m) => m.name))}, recordings that are transcripts without audio count by their cues' names and times, and give no pitch, loudness or syllable rate (not measured: no audio). `
        : '');
  blocks.push({
    type: 'text',
    title: 'Limits',
    content:
      source +
      // Issue 38: overlap comes from the audio unless a transcript times it (docs/analysis.md).
      'Where no transcript times them, interruptions, backchannels and overlapped speech are measured from the audio, where the speaker segmentation hears two voices at once; on real meetings it finds about a third of the overlapped speech, so those counts run low. ' +
      `Entrainment is tested against ${fixed(e.method.permutations ?? 0, 0)} shuffled pairings of the same turns; unrelated speakers average ${fixed(e.method.unrelatedEntrainment ?? 0, 0)}. ` +
      (noTranscript.length > 0
        ? `Without transcript lines attributed to them there are no language measures and no language style matching for ${names}. `
        : 'Language measures come from the attached transcripts as written. ') +
      'Scores describe behavior in these recordings, not personality or worth.',
  });
  return blocks;
}
