// Markdown for a terminal. Piped output gets the Markdown unchanged (it is already readable and
// other tools can render it); on a colour terminal headings and bold text are emphasised.

const BOLD = '\x1b[1m';
const UNDERLINE = '\x1b[4m';
const DIM = '\x1b[2m';
const RESET = '\x1b[0m';

export function renderMarkdown(markdown: string, color: boolean): string {
  if (!color) return markdown;
  return markdown
    .split('\n')
    .map((line) => {
      const heading = /^(#{1,6})\s+(.*)$/.exec(line);
      if (heading) {
        const text = heading[2] ?? '';
        return heading[1] === '#' ? `${BOLD}${UNDERLINE}${text}${RESET}` : `${BOLD}${text}${RESET}`;
      }
      if (/^\s*>/.test(line)) return `${DIM}${line}${RESET}`;
      return line.replace(/\*\*([^*]+)\*\*/g, `${BOLD}$1${RESET}`).replace(/`([^`]+)`/g, `${DIM}$1${RESET}`);
    })
    .join('\n');
}
