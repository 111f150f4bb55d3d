// Who speaks a WebVTT or SRT cue, and how the service's own exports write it so that it is read
// back as the same name (docs/analysis.md, "Speaker names in WebVTT and SRT").
//
// WebVTT has a place for the name, the voice tag `<v Name>`, with character references for `&`,
// `<` and `>`: it is read whole. SRT has none, so names are read from the conventions captioners
// use, "NAME: words", "- NAME: words" (the dialogue dash) and "[NAME] words". A colon or a bracket
// is also ordinary text ("10:30", "[laughter]"), so a lone cue's prefix is a name only when it
// looks like one (a few words, letters first, an optional "(chair)" or "[guest]"); but where
// every cue of a file starts the same way ("who: " or "[who] "), that is how the file names its
// speakers, and each prefix is a name however it is spelled. The exports label every cue, and
// write the two spaces the SRT reading would split at as a no-break space (U+00A0), which is read
// as a space: every name they write comes back as it was.

import { stripTags, voiceAnnotations } from './cue-markup.ts';

/** A name as it is stored and compared: white space runs as one space, none at the ends. */
export function normaliseSpeakerName(name: string): string {
  return normaliseSpace(name);
}

function normaliseSpace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** A speaker's name as a WebVTT voice annotation (`<v …>`): the characters it may not hold as references. */
export function vttVoiceName(name: string): string {
  return escapeMarkup(normaliseSpeakerName(name));
}

/**
 * A speaker's name as an SRT prefix (the exports write `${srtSpeakerName(name)}: words`): a space
 * after a colon, or after a leading dash, is written as a no-break space, so the prefix ends at
 * the separator's colon and is not a dialogue dash; `<` and the references the reader decodes are
 * escaped, so they are not taken for markup; and "-->" never appears in a cue.
 */
export function srtSpeakerName(name: string): string {
  return normaliseSpeakerName(name)
    .replace(/&(?=(?:lt|gt|amp|nbsp|quot|apos|#39);)/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/-->/g, '--&gt;')
    .replace(/: /g, ':\u00A0')
    .replace(/^- /, '-\u00A0');
}

/** `&`, `<` and `>` as WebVTT (and HTML) character references. */
function escapeMarkup(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&nbsp;/g, '\u00A0')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

/**
 * The words of a cue: square-bracketed descriptions ("[laughter]", "[Ada speaking]", which the
 * service's own exports write where no words are known) are captions' notes of sounds, not
 * speech, so pace and language style do not count them.
 */
export function spokenText(text: string): string {
  return normaliseSpace(text.replace(/\[[^[\]]*\]/g, ' '));
}

export interface CueWords {
  speaker: string | null;
  text: string;
}

/** The speaker and words of each cue's text (its payload lines) of one WebVTT or SRT file. */
export function readCueSpeakers(payloads: readonly string[]): CueWords[] {
  const cues = payloads.map(splitCue);
  // Cues without a voice tag, and with text (an empty cue says nothing of how names are written).
  const unvoiced = cues.filter((c) => c.voices.length === 0 && c.lines.length > 0);
  const has = (test: (line: string) => boolean) => unvoiced.length > 0 && unvoiced.every((c) => test(undash(c.lines[0] ?? '').line));
  const style: LabelStyle = has((l) => colonSplit(l) !== null) ? 'colon' : has((l) => bracketLabel(l) !== null) ? 'bracket' : 'loose';
  return cues.map((c) => (c.voices.length ? voiced(c) : labelled(c.lines, style)));
}

/** How a file names its speakers: every cue "who: ", every cue "[who] ", or neither (each prefix judged alone). */
type LabelStyle = 'colon' | 'bracket' | 'loose';

interface SplitCue {
  /** The names of its voice tags, decoded. */
  voices: string[];
  /** Its lines without tags, references decoded; none empty. */
  lines: string[];
}

// Tags are read in one pass (cue-markup.ts): a regex per tag was quadratic in a cue of many
// unclosed `<v`.
function splitCue(raw: string): SplitCue {
  const voices = voiceAnnotations(raw).map((a) => normaliseSpeakerName(decodeEntities(a))).filter((n) => n !== '');
  const lines = decodeEntities(stripTags(raw)).split('\n').filter((l) => l.trim() !== '');
  return { voices, lines };
}

/** A cue with voice tags: its one voice, or no one where it has two (whose words are whose is not said). */
function voiced(c: SplitCue): CueWords {
  const names = new Set(c.voices);
  return { speaker: names.size === 1 ? (c.voices[0] ?? null) : null, text: spokenText(c.lines.join(' ')) };
}

function labelled(lines: readonly string[], style: LabelStyle): CueWords {
  const first = undash(lines[0] ?? '');
  if (!first.dash) {
    const label = labelOf(first.line, style);
    if (!label) return { speaker: null, text: spokenText(lines.join(' ')) };
    return { speaker: label.name, text: spokenText([label.rest, ...lines.slice(1)].join(' ')) };
  }
  // Dialogue ("- ANN: Ready?" "- BOB: Go."): each dashed line is a turn. One name for them all is
  // the cue's speaker; two names, or a turn without one, leave the cue unnamed, not half wrong.
  const names = new Set<string | null>();
  const words = lines.map((line) => {
    const turn = undash(line);
    if (!turn.dash) return line;
    const label = labelOf(turn.line, style);
    names.add(label?.name ?? null);
    return label ? label.rest : turn.line;
  });
  if (!names.size || (names.size === 1 && names.has(null))) return { speaker: null, text: spokenText(lines.join(' ')) };
  const [only] = names;
  return { speaker: names.size === 1 ? (only ?? null) : null, text: spokenText(words.join(' ')) };
}

function undash(line: string): { line: string; dash: boolean } {
  const m = /^[ \t]*-[ \t]+(.*)$/s.exec(line);
  return m ? { line: m[1] ?? '', dash: true } : { line, dash: false };
}

/** The name a line starts with and the words after it, in the file's style. */
function labelOf(line: string, style: LabelStyle): { name: string; rest: string } | null {
  if (style === 'colon') {
    const split = colonSplit(line);
    if (split) return split;
  }
  if (style === 'bracket') return bracketLabel(line);
  // Judged alone: the text before the first colon, when it looks like a name.
  const at = line.indexOf(':');
  if (at < 0) return null;
  const name = line.slice(0, at);
  return nameLike(name) ? { name: normaliseSpeakerName(name), rest: line.slice(at + 1) } : null;
}

/** "who: words": the text before the first colon followed by a space or tab or ending the line. */
function colonSplit(line: string): { name: string; rest: string } | null {
  const m = /^(.*?):(?:[ \t]|$)(.*)$/s.exec(line);
  const name = normaliseSpeakerName(m?.[1] ?? '');
  return m && name ? { name, rest: m[2] ?? '' } : null;
}

/** "[who] words": a bracket that looks like a name, then words. */
function bracketLabel(line: string): { name: string; rest: string } | null {
  const m = /^[ \t]*\[([^[\]]+)\][ \t]+(\S.*)$/s.exec(line);
  return m?.[1] && nameLike(m[1]) ? { name: normaliseSpeakerName(m[1]), rest: m[2] ?? '' } : null;
}

const WORD = String.raw`[\p{L}\p{M}\p{N}'’.\-_]+`;
const GROUP = String.raw`\([^()[\]:]+\)|\[[^()[\]:]+\]`;
const TOKEN = new RegExp(String.raw`(${GROUP})|(${WORD})`, 'yu');

/**
 * A prefix that reads as a name on its own: up to four words of letters, digits, apostrophes,
 * dots, dashes and underscores, the first a letter ("Dr. Jones", "Ann-Marie", "Speaker 2"), and
 * up to two bracketed or parenthesised parts ("Dr. Smith [guest]", "Anna (chair)",
 * "[Moderator]"). "The plan for the day is simple" and "10" are not names.
 */
function nameLike(text: string): boolean {
  const s = text.trim();
  let words = 0;
  let groups = 0;
  let at = 0;
  while (at < s.length) {
    TOKEN.lastIndex = at;
    const m = TOKEN.exec(s);
    if (!m) return false;
    if (m[1] !== undefined) groups++;
    else if (words++ === 0 && groups === 0 && !/^\p{L}/u.test(m[2] ?? '')) return false;
    if (words > 4 || groups > 2) return false; // a sentence, not a name: stop reading it
    at = TOKEN.lastIndex;
    while (s[at] === ' ' || s[at] === '\t') at++;
  }
  return words + groups > 0 && /\p{L}/u.test(s);
}
