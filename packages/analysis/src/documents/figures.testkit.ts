// Test helper: every figure of a document's text must be a rounding of a value in its evidence
// (decisions §6). Used by the document tests only.
import type { MatchingEvidence } from './types.ts';

/** Every numeric leaf of the evidence. */
function evidenceNumbers(e: unknown, out: number[] = []): number[] {
  if (typeof e === 'number' && Number.isFinite(e)) out.push(e);
  else if (Array.isArray(e)) for (const x of e) evidenceNumbers(x, out);
  else if (e && typeof e === 'object') for (const x of Object.values(e)) evidenceNumbers(x, out);
  return out;
}

/**
 * Figures of a text that no evidence value rounds to. Shares may be shown as percentages,
 * durations ("2 min 24 s", "1 h 3 min") are one figure in seconds or minutes, and the members'
 * names ("Speaker 2 in b.wav") are names, not figures.
 */
export function unexplainedFigures(text: string, evidence: MatchingEvidence): string[] {
  const values = evidenceNumbers(evidence);
  const names = [evidence.target, ...evidence.group].flatMap((m) => [m.name, m.shortName]).sort((a, b) => b.length - a.length);
  let rest = text;
  for (const n of names) rest = rest.split(n).join(' ');
  const wrong: string[] = [];
  // Durations: whole seconds (from seconds or minutes in the evidence), or whole minutes over an hour.
  const near = (target: number, scales: number[]) => values.some((v) => scales.some((k) => Math.round(v * k) === target));
  rest = rest.replace(/(?<![\w.])(\d+) h(?: (\d+) min)?(?![\w])/g, (m, h: string, min?: string) => {
    if (!near(Number(h) * 60 + Number(min ?? 0), [1 / 60, 1])) wrong.push(m);
    return ' ';
  });
  rest = rest.replace(/(?<![\w.])(\d+) min(?: (\d+) s)?(?![\w])/g, (m, min: string, sec?: string) => {
    if (!near(Number(min) * 60 + Number(sec ?? 0), [1, 60])) wrong.push(m);
    return ' ';
  });
  const figures = rest.match(/(?<![\w.])-?\d+(?:\.\d+)?(?![\w])/g) ?? [];
  return [...wrong, ...figures.filter((f) => {
    const decimals = f.includes('.') ? (f.split('.')[1]?.length ?? 0) : 0;
    const n = Number(f);
    return !values.some((v) => Number(v.toFixed(decimals)) === n || Number((v * 100).toFixed(decimals)) === n);
  })];
}
