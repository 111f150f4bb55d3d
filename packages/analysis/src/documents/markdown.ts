// Markdown rendering of a result document: every title, card and text of the document appears,
// in document order. Illustrations become HTML comments (Markdown has nothing to draw them with).
import type { Block, MatchingEvidence, ResultDocument } from './types.ts';

function renderBlock(block: Block, out: string[]): void {
  switch (block.type) {
    case 'card':
      out.push(`- **${block.title}**: ${block.content}`);
      return;
    case 'grid':
      for (const item of block.items) out.push(`- **${item.title}**: ${item.content}`);
      return;
    case 'text':
      if (block.title) out.push(`### ${block.title}`, '');
      out.push(block.content);
      return;
    case 'illustration':
      out.push(`<!-- illustration: ${block.variant} -->`);
      return;
  }
}

export function renderMarkdown(doc: ResultDocument, _evidence?: MatchingEvidence): string {
  const out: string[] = [`# ${doc.title}`, '', doc.summary];
  for (const section of doc.sections) {
    out.push('', `## ${section.section_title}`);
    const content = section.section_content;
    const blocks: Block[] = Array.isArray(content) ? content : 'type' in content ? [content as Block] : [];
    let previous: Block['type'] | null = null;
    for (const block of blocks) {
      // Consecutive list items stay one list; anything else is its own paragraph.
      const listLike = block.type === 'card' || block.type === 'grid';
      if (!(listLike && (previous === 'card' || previous === 'grid'))) out.push('');
      renderBlock(block, out);
      previous = block.type;
    }
  }
  return `${out.join('\n')}\n`;
}
