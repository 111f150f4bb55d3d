// The report document (decisions §9, §11 adapted to one person): overview, voice and pace,
// language, growth opportunities, method and confidence; and its Markdown.
import type { MediaAnalysis } from '../types.ts';
import { languageText, loudnessCard, methodBlocks, paceCard, profileGrowth, speechCard, turnTakingCard, turnsCard, voiceCard } from './blocks.ts';
import { buildEvidence } from './evidence.ts';
import { count, duration, fixed, measured, percent } from './format.ts';
import { renderMarkdown } from './markdown.ts';
import { naming } from './naming.ts';
import type { BuiltDocument } from './matching.ts';
import type { Block, MemberInput, ResultDocument } from './types.ts';

export interface BuildReportInput {
  target: MemberInput;
  media: Record<string, MediaAnalysis>;
}

export function buildReport(input: BuildReportInput): BuiltDocument {
  const names = naming([input.target]);
  const evidence = buildEvidence('report', names.members[0] ?? input.target, [], input.media);
  const t = evidence.target;
  const x = t.metrics;
  const language = x.language
    ? ` From the transcripts: ${measured(x.language.wordsPerMinute, 0, 'words per minute')} and ${fixed(x.language.questionRate, 1)} questions per 100 words.`
    : ' No transcript was attached, so there are no language measures.';
  const growth = profileGrowth(t);
  const growthBlocks: Block[] = [{ type: 'illustration', variant: 'growth' }];
  if (growth.length > 0) growthBlocks.push({ type: 'grid', columns: 2, items: growth });
  else {
    growthBlocks.push({
      type: 'text',
      content: `The gaps, talk share, interruptions and hedging of ${t.name} all sit within conversational norms in these recordings; more recorded conversation would sharpen the profile.`,
    });
  }
  const document: ResultDocument = {
    schemaVersion: 1,
    title: `Behavioral profile: ${t.name}`,
    summary:
      `${t.name} spoke for ${duration(x.speechSec)} in ${count(t.mediaCount, 'recording')}, with an average talk share of ${percent(x.talkShare)} ` +
      `and a median gap of ${measured(x.medianGapBeforeTurnSec, 2, 's')} before taking the floor.${language}`,
    sections: [
      {
        section_title: 'Overview',
        section_content: [
          { type: 'grid', columns: 3, items: [speechCard(t), turnsCard(t), turnTakingCard(t)] },
          { type: 'illustration', variant: 'conversation' },
        ],
      },
      { section_title: 'Voice and pace', section_content: { type: 'grid', columns: 3, items: [paceCard(t), voiceCard(t), loudnessCard(t)] } },
      { section_title: 'Language', section_content: languageText(t, null) },
      { section_title: 'Growth opportunities', section_content: growthBlocks },
      { section_title: 'Method and confidence', section_content: methodBlocks(evidence) },
    ],
  };
  const resolved = names.resolveDocument(document);
  const resolvedEvidence = names.resolveEvidence(evidence);
  return { document: resolved, markdown: renderMarkdown(resolved, resolvedEvidence), evidence: resolvedEvidence };
}
