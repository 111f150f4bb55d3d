// Number formatting for documents. Every figure goes through these helpers so that a figure in a
// document is always a rounding of a value in the evidence (scores and shares as shown here).

/** Fixed decimals; "-0.0" is printed as "0.0". */
export function fixed(value: number, decimals: number): string {
  const s = value.toFixed(decimals);
  return /^-0(\.0+)?$/.test(s) ? s.slice(1) : s;
}

/** A 0–100 score as a whole number. */
export function score(value: number): string {
  return fixed(value, 0);
}

/** A share 0–1 as a whole percentage. */
export function percent(value: number): string {
  return `${fixed(value * 100, 0)}%`;
}

/** A value with its unit, or the words "not measured". */
export function measured(value: number | null, decimals: number, unit = ''): string {
  if (value === null || !Number.isFinite(value)) return 'not measured';
  return unit ? `${fixed(value, decimals)} ${unit}` : fixed(value, decimals);
}

/** "1 recording", "3 recordings". */
export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}
