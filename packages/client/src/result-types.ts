// What a finished job produced: the result document (interface-spec.md "Result document") and
// the matching and report payloads that carry it.
import type { Id, Timestamp } from './common-types.ts';
import type { Member } from './job-types.ts';

export interface CardBlock { type: 'card'; title: string; content: string; icon: string }
export interface TextBlock { type: 'text'; content: string; title?: string }
export interface GridBlock { type: 'grid'; columns: 2 | 3 | 4; items: CardBlock[] }
export interface IllustrationBlock { type: 'illustration'; variant: 'conversation' | 'growth' | 'connection' | 'analysis' }
export type Block = CardBlock | TextBlock | GridBlock | IllustrationBlock;

export interface Section {
  section_title: string;
  section_content: Block | Block[] | Record<string, never>;
}

export interface ResultDocument {
  schemaVersion: 1;
  title: string;
  summary: string;
  sections: Section[];
}

export interface ResolvedMember {
  source: Member;
  entityId?: string;
  resolvedLabel?: string | null;
}

export interface MatchingOutput {
  template: 'matching';
}

export interface ReportOutput {
  template: 'report';
}

export interface MatchingPayload {
  id: Id;
  jobId?: Id;
  context: 'behavioral_compatibility';
  createdAt: Timestamp;
  label?: string;
  output: MatchingOutput;
  target: ResolvedMember;
  group: ResolvedMember[];
  json?: ResultDocument | null;
  markdown?: string | null;
}

export interface ReportPayload {
  id: Id;
  jobId?: Id;
  context: 'behavioral_profile';
  createdAt: Timestamp;
  label?: string;
  output: ReportOutput;
  target: ResolvedMember;
  json?: ResultDocument | null;
  markdown?: string | null;
}
