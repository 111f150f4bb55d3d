// The markup of a WebVTT or SRT cue's text, read in one pass: its voice tags' annotations and
// its text without tags. These were the regexes /<v(?:\.[^\s>]*)?[ \t]+([^>]+)>/g and
// /<[^>]*>/g, which give exactly these answers, but a regex tries every `<v` (every `<`) again
// from the start, and each try scans ahead to a `>` (or to the end of a voice's classes) that
// may never come: a cue of 100,000 `<v` without a `>` held the parser about a minute. Here each
// scan ahead is remembered, so every character is read a bounded number of times.

/** The end of a voice tag's classes (`.loud.x`) from `from`: the first white space or `>`, or the end. */
const CLASS_STOP = /[\s>]/g;

/**
 * The annotation of each voice tag of `raw` (`<v Name>`, `<v.loud Name>`), as written (no
 * reference decoded, white space kept), in order; what the regex
 * /<v(?:\.[^\s>]*)?[ \t]+([^>]+)>/g captures, match by match.
 */
export function voiceAnnotations(raw: string): string[] {
  const out: string[] = [];
  // The first `>` at or after some earlier position, and where the classes that started before it
  // stop: both still hold for any later position up to them, which is what makes this linear.
  let gt = -1;
  let classStop = -1;
  for (let at = raw.indexOf('<v'); at >= 0; ) {
    let p = at + 2;
    if (raw[p] === '.') {
      if (p + 1 > classStop) {
        CLASS_STOP.lastIndex = p + 1;
        classStop = CLASS_STOP.exec(raw)?.index ?? raw.length;
      }
      p = classStop;
    }
    if (raw[p] === ' ' || raw[p] === '\t') {
      if (p > gt) gt = raw.indexOf('>', p);
      // No `>` from here on: no later tag can close either.
      if (gt < 0) break;
      // The blanks, then at least one character before the `>` (the regex gives back the last
      // blank as the annotation where nothing else comes before it).
      if (gt - p >= 2) {
        let name = p;
        while (name < gt - 1 && (raw[name] === ' ' || raw[name] === '\t')) name++;
        out.push(raw.slice(name, gt));
        at = raw.indexOf('<v', gt + 1);
        continue;
      }
    }
    at = raw.indexOf('<v', at + 1);
  }
  return out;
}

/** `raw` without its tags: every `<` up to the first `>` after it, where there is one (raw.replace(/<[^>]*>/g, '')). */
export function stripTags(raw: string): string {
  // A `<` after the last `>` opens nothing: the text from there on is kept as it is.
  const last = raw.lastIndexOf('>');
  const parts: string[] = [];
  let from = 0;
  for (let lt = raw.indexOf('<'); lt >= 0 && lt < last; lt = raw.indexOf('<', from)) {
    parts.push(raw.slice(from, lt));
    from = raw.indexOf('>', lt) + 1;
  }
  parts.push(raw.slice(from));
  return parts.join('');
}
