// The matching document (decisions §11): overview, the target at a glance, one section per
// member, growth opportunities, method and confidence; and its Markdown.
import type { MediaAnalysis } from '../types.ts';
import { card, gridColumns, languageText, methodBlocks, profileCards, profileGrowth } from './blocks.ts';
import { DOCUMENT_CONSTANTS, buildEvidence } from './evidence.ts';
import { count, fixed, percent, score } from './format.ts';
import { renderMarkdown } from './markdown.ts';
import { naming } from './naming.ts';
import { componentAdvice, componentCards, trustNote } from './pair-blocks.ts';
import type { Block, CardBlock, MatchingEvidence, MemberInput, PairEvidence, ResultDocument, Section } from './types.ts';

export interface BuildMatchingInput {
  target: MemberInput;
  group: MemberInput[];
  media: Record<string, MediaAnalysis>;
}

export interface BuiltDocument {
  document: ResultDocument;
  markdown: string;
  evidence: MatchingEvidence;
}

function overallText(p: PairEvidence, max: number): string {
  return p.overall.score === null ? 'could not be scored' : `${score(p.overall.score)} of ${max}`;
}

function summaryOf(e: MatchingEvidence): string {
  const t = e.target.name;
  const max = e.scale.max;
  const first = e.pairs[0];
  let head: string;
  if (e.pairs.length === 1 && first) {
    head = `${t} and ${first.name}: overall compatibility ${overallText(first, max)} (confidence ${percent(first.overall.confidence)}).`;
  } else if (e.groupOverall !== null) {
    head = `${t} with the group of ${e.groupSize}: overall compatibility ${score(e.groupOverall)} of ${max} (confidence-weighted mean of the pairs).`;
  } else {
    head = `${t} with the group of ${e.groupSize}: no pair could be scored from the available speech.`;
  }
  // Decisions §20: a composite resting on one measured figure is not headlined.
  const dims = e.dimensions.filter((d) => !d.singleFigure).sort((a, b) => b.score - a.score);
  const strongest = dims[0];
  const weakest = dims[dims.length - 1];
  if (!strongest || !weakest || dims.length < 2) return head;
  return `${head} Strongest dimension: ${strongest.name.toLowerCase()} (${score(strongest.score)}); weakest: ${weakest.name.toLowerCase()} (${score(weakest.score)}).`;
}

function memberCard(p: PairEvidence, max: number): CardBlock {
  const how = p.met ? `spoke together in ${count(p.sharedMediaCount, 'recording')}` : 'never recorded together: their profiles are compared';
  return card('member', p.name, `Overall ${overallText(p, max)}, confidence ${percent(p.overall.confidence)}; ${how}.`);
}

function pairSection(e: MatchingEvidence, p: PairEvidence): Section {
  const t = e.target.name;
  const blocks: Block[] = [];
  if (p.met) blocks.push({ type: 'illustration', variant: 'conversation' });
  const cards = componentCards(p, t);
  blocks.push({ type: 'grid', columns: gridColumns(cards.length), items: cards });
  blocks.push({
    type: 'text',
    title: 'What was measured',
    content: (p.met
      ? `${t} and ${p.name} spoke together in ${count(p.sharedMediaCount, 'recording')}; these scores come from their exchanges there. Overall ${overallText(p, e.scale.max)}, the confidence-weighted mean of the components.`
      : `${t} and ${p.name} were never recorded together, so this compares the profiles each shows in their own recordings. Overall ${overallText(p, e.scale.max)}, the confidence-weighted mean of similarity and complementarity.`) + trustNote(p),
  });
  return { section_title: `${t} and ${p.name}`, section_content: blocks };
}

function growthSection(e: MatchingEvidence): Section {
  const weak = e.pairs
    .flatMap((p) => p.components.filter((c) => c.score !== null && c.score < DOCUMENT_CONSTANTS.growthThreshold).map((c) => ({ p, c })))
    .sort((a, b) => (a.c.score ?? 0) - (b.c.score ?? 0));
  const cards: CardBlock[] = [];
  const covered = new Set<string>();
  for (const { p, c } of weak) {
    const advice = componentAdvice(c, e.target.name, p.name);
    if (advice && cards.length < 4) {
      cards.push(advice);
      covered.add(c.key);
    }
  }
  for (const g of profileGrowth(e.target, covered)) if (cards.length < 4) cards.push(g);
  const blocks: Block[] = [{ type: 'illustration', variant: 'growth' }];
  if (cards.length > 0) blocks.push({ type: 'grid', columns: 2, items: cards });
  else {
    blocks.push({
      type: 'text',
      content: `No component gave advice below ${fixed(DOCUMENT_CONSTANTS.growthThreshold, 0)} and the turn-taking of ${e.target.name} sits within conversational norms; the clearest lever is more shared conversation, which raises every confidence.`,
    });
  }
  return { section_title: 'Growth opportunities', section_content: blocks };
}

export function buildMatching(input: BuildMatchingInput): BuiltDocument {
  const names = naming([input.target, ...input.group]);
  const [target, ...group] = names.members;
  const built = writeMatching(buildEvidence('matching', target ?? input.target, group, input.media));
  const document = names.resolveDocument(built);
  const evidence = names.resolveEvidence(built.evidence);
  return { document, markdown: renderMarkdown(document, evidence), evidence };
}

function writeMatching(evidence: MatchingEvidence): ResultDocument & { evidence: MatchingEvidence } {
  const t = evidence.target;
  const memberCards = evidence.pairs.map((p) => memberCard(p, evidence.scale.max));
  const profile = profileCards(t);
  return {
    evidence,
    schemaVersion: 1,
    title: `Behavioral compatibility: ${t.name}`,
    summary: summaryOf(evidence),
    sections: [
      {
        section_title: 'Overview',
        section_content: [
          { type: 'grid', columns: gridColumns(memberCards.length), items: memberCards },
          { type: 'illustration', variant: 'connection' },
        ],
      },
      {
        section_title: `${t.name} at a glance`,
        section_content: [{ type: 'grid', columns: gridColumns(profile.length), items: profile }, languageText(t)],
      },
      ...evidence.pairs.map((p) => pairSection(evidence, p)),
      growthSection(evidence),
      { section_title: 'Method and confidence', section_content: methodBlocks(evidence) },
    ],
  };
}
