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

/**
 * A duration as a person reads it: "42 s", "2 min 24 s", "1 h 3 min" (whole seconds; under 10 s
 * one decimal). The figures are a rounding of the seconds in the evidence.
 */
export function duration(sec: number | null): string {
  if (sec === null || !Number.isFinite(sec)) return 'not measured';
  if (sec < 9.95) return `${fixed(sec, 1)} s`;
  const total = Math.round(sec);
  if (total < 60) return `${total} s`;
  if (total < 3600) {
    const s = total % 60;
    return s === 0 ? `${total / 60} min` : `${Math.floor(total / 60)} min ${s} s`;
  }
  const min = Math.round(sec / 60);
  const m = min % 60;
  return m === 0 ? `${min / 60} h` : `${Math.floor(min / 60)} h ${m} min`;
}

/** Semitones above the reference frequency (the engine's pitch scale) as hertz. */
export function semitonesToHz(st: number | null, referenceHz: number): number | null {
  return st === null || !Number.isFinite(st) ? null : referenceHz * 2 ** (st / 12);
}
