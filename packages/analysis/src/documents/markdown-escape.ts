// Plain text into Markdown. A document's strings are plain text that carries what users wrote
// (entity and media labels, file names, transcript names): in the Markdown each is escaped so
// that it shows as written and never becomes markup, a link, an image or HTML (issue 32, finding
// 7: `<img src=x>` used to reach the Markdown as it was). HTML's special characters become
// entities (renderers that pass HTML through show them as text), Markdown's inline punctuation is
// backslash-escaped (CommonMark §2.4), a line break becomes a space, and what would open a block
// at the start of a line (a heading, quote, list item, rule, table or fence) is escaped there.

const INLINE = /[\\`*_[\]|~]/g;
const HTML: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

export function escapeMarkdown(text: string): string {
  const line = text.replace(/[\r\n\u2028\u2029\t\v\f]+/g, ' ');
  const inline = line.replace(/[&<>]/g, (c) => HTML[c] as string).replace(INLINE, (c) => `\\${c}`);
  // Block openers only count at the start of a line: `#`, `+`, `-`, `=`, `1.` / `1)`.
  return inline.replace(/^(\s*)([#+=-])/, '$1\\$2').replace(/^(\s*\d+)([.)])/, '$1\\$2');
}
