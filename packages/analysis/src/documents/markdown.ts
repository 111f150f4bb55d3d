// Markdown rendering of a result document: every title, card and text of the document appears,
// in document order, and every illustration as a text figure drawn from the evidence
// (decisions §11). Without evidence an illustration is an HTML comment naming its variant. Every
// string of the document is plain text (some of it written by users): it is escaped here.
import { figureFor } from './figures.ts';
import { escapeMarkdown as md } from './markdown-escape.ts';
import { figureText } from './figure-text.ts';
import type { Block, IllustrationVariant, MatchingEvidence, ResultDocument } from './types.ts';

function renderBlock(block: Block, out: string[], figure: () => string | null): void {
  switch (block.type) {
    case 'card':
      out.push(`- **${md(block.title)}**: ${md(block.content)}`);
      return;
    case 'grid':
      for (const item of block.items) out.push(`- **${md(item.title)}**: ${md(item.content)}`);
      return;
    case 'text':
      if (block.title) out.push(`### ${md(block.title)}`, '');
      out.push(md(block.content));
      return;
    case 'illustration':
      out.push(figure() ?? `<!-- illustration: ${block.variant} -->`);
      return;
  }
}

export function renderMarkdown(doc: ResultDocument, evidence?: MatchingEvidence): string {
  const out: string[] = [`# ${md(doc.title)}`, '', md(doc.summary)];
  const seen: Partial<Record<IllustrationVariant, number>> = {};
  for (const section of doc.sections) {
    out.push('', `## ${md(section.section_title)}`);
    const content = section.section_content;
    const blocks: Block[] = Array.isArray(content) ? content : 'type' in content ? [content as Block] : [];
    let previous: Block['type'] | null = null;
    for (const block of blocks) {
      // Consecutive list items stay one list; anything else is its own paragraph.
      const listLike = block.type === 'card' || block.type === 'grid';
      if (!(listLike && (previous === 'card' || previous === 'grid'))) out.push('');
      renderBlock(block, out, () => {
        if (block.type !== 'illustration' || !evidence) return null;
        const k = seen[block.variant] ?? 0;
        seen[block.variant] = k + 1;
        const f = figureFor(block.variant, evidence, k);
        return f ? figureText(f) : null;
      });
      previous = block.type;
    }
  }
  return `${out.join('\n')}\n`;
}
