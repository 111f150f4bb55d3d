// Speakers named the way a person reads them (decisions §11): by their entity's label when it has
// one, else briefly, "Speaker 2 in interview.wav" at the first mention and "Speaker 2" after.
// Documents are written with a placeholder per member; `resolveNames` then walks the document in
// reading order (the order the Markdown renders it) and puts the long name at the first mention.
import type { Block, MatchingEvidence, MemberInput, ResultDocument } from './types.ts';

const OPEN = '\u{E000}';
const CLOSE = '\u{E001}';
const TOKEN = new RegExp(`${OPEN}(\\d+)${CLOSE}`, 'gu');

export interface Naming {
  /** The members with their names replaced by placeholders, for the document builders. */
  members: MemberInput[];
  resolveDocument(doc: ResultDocument): ResultDocument;
  resolveEvidence(evidence: MatchingEvidence): MatchingEvidence;
}

/**
 * The short name of each member, or its full name when the short one would be ambiguous (two
 * "Speaker 1" from different recordings) or equal to another member's full name.
 */
export function shortNames(members: readonly Pick<MemberInput, 'name' | 'shortName'>[]): string[] {
  const shorts = members.map((m) => m.shortName ?? m.name);
  return members.map((m, i) => {
    const s = shorts[i] ?? m.name;
    const clash = members.some((o, j) => j !== i && (shorts[j] === s || o.name === s) && o.name !== m.name);
    return clash ? m.name : s;
  });
}

export function naming(inputs: readonly MemberInput[]): Naming {
  const short = shortNames(inputs);
  const full = inputs.map((m) => m.name);
  const members = inputs.map((m, i) => ({ ...m, name: `${OPEN}${i}${CLOSE}` }));

  function resolveDocument(doc: ResultDocument): ResultDocument {
    const mentioned = new Set<number>();
    const put = (text: string): string =>
      text.replace(TOKEN, (_, k: string) => {
        const i = Number(k);
        if (mentioned.has(i)) return short[i] ?? '';
        mentioned.add(i);
        return full[i] ?? '';
      });
    const block = (b: Block): Block => {
      switch (b.type) {
        case 'card': {
          const title = put(b.title);
          return { ...b, title, content: put(b.content) };
        }
        case 'grid':
          return { ...b, items: b.items.map((c) => block(c) as typeof c) };
        case 'text': {
          const title = b.title === undefined ? undefined : put(b.title);
          const content = put(b.content);
          return title === undefined ? { type: 'text', content } : { type: 'text', title, content };
        }
        case 'illustration':
          return b;
      }
    };
    const title = put(doc.title);
    const summary = put(doc.summary);
    const sections = doc.sections.map((s) => {
      const section_title = put(s.section_title);
      const c = s.section_content;
      const section_content = Array.isArray(c) ? c.map(block) : 'type' in c ? block(c as Block) : c;
      return { section_title, section_content };
    });
    return { schemaVersion: doc.schemaVersion, title, summary, sections };
  }

  function resolveEvidence(evidence: MatchingEvidence): MatchingEvidence {
    const member = <T extends { name: string }>(m: T, i: number) => ({ ...m, name: full[i] ?? m.name, shortName: short[i] ?? m.name });
    return {
      ...evidence,
      target: member(evidence.target, 0),
      group: evidence.group.map((g, k) => member(g, k + 1)),
      pairs: evidence.pairs.map((p, k) => ({ ...p, name: full[k + 1] ?? p.name })),
    };
  }

  return { members, resolveDocument, resolveEvidence };
}
