// Time expressions in a magic_hint: "at 1:23", "around 90 s", "at 1 min 30 s", "at 0:01:05",
// "between 1:00 and 2:00". Returns the window of media time the hint points at, in seconds.

/** Half-width of the window around a time: "at" is precise, "around" is loose. */
const AT_WINDOW_SEC = 1.5;
const AROUND_WINDOW_SEC = 5;

const PATTERNS: { re: RegExp; seconds: (m: RegExpExecArray) => number }[] = [
  {
    re: /\b(\d+):([0-5]\d)(?::([0-5]\d))?(?:\.(\d+))?\b/g,
    seconds: (m) => {
      const frac = m[4] ? Number(`0.${m[4]}`) : 0;
      return m[3] !== undefined
        ? Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) + frac
        : Number(m[1]) * 60 + Number(m[2]) + frac;
    },
  },
  {
    re: /\b(\d+(?:\.\d+)?)\s*(?:m|min|mins|minute|minutes)(?![a-z])(?:\s*(?:and\s+)?(\d+(?:\.\d+)?)\s*(?:s|sec|secs|second|seconds)(?![a-z]))?/g,
    seconds: (m) => Number(m[1]) * 60 + (m[2] ? Number(m[2]) : 0),
  },
  { re: /\b(\d+(?:\.\d+)?)\s*(?:s|sec|secs|second|seconds)(?![a-z])/g, seconds: (m) => Number(m[1]) },
];

export function parseHintTimes(hint: string): { from: number; to: number } | null {
  const found: { at: number; end: number; seconds: number }[] = [];
  for (const { re, seconds } of PATTERNS) {
    re.lastIndex = 0;
    for (let m = re.exec(hint); m; m = re.exec(hint)) {
      const at = m.index;
      const end = at + m[0].length;
      // An earlier (more specific) pattern already read this text.
      if (found.some((f) => at < f.end && end > f.at)) continue;
      const s = seconds(m);
      if (Number.isFinite(s)) found.push({ at, end, seconds: s });
    }
  }
  if (found.length === 0) return null;
  found.sort((a, b) => a.at - b.at);
  const first = found[0];
  const second = found[1];
  if (!first) return null;
  if (second && /\b(between|from)\b/.test(hint)) {
    const from = Math.min(first.seconds, second.seconds);
    const to = Math.max(first.seconds, second.seconds);
    if (to > from) return { from, to };
  }
  const w = /\b(around|about|near|nearly|approximately|approx|roughly|circa|ish)\b|~/.test(hint) ? AROUND_WINDOW_SEC : AT_WINDOW_SEC;
  return { from: Math.max(0, first.seconds - w), to: first.seconds + w };
}
