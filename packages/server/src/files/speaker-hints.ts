// Speaker-count hints: what a user knows of how many people speak in a media. They come as text
// fields of the upload form or as a JSON body of a re-analysis, are checked with the same rules
// (whole numbers 1..20, numSpeakers alone or minSpeakers <= maxSpeakers), are stored with the
// media, and are handed to the engine with every analysis of it.
import type { SpeakerCountHint } from '@rapport/analysis';
import { ApiError, type ErrorDetail } from '../errors.ts';
import { HINT_FIELDS, MAX_SPEAKERS_HINT, MIN_SPEAKERS_HINT, type HintField, type ReanalyzeBody, type SpeakerHints } from './files.schemas.ts';

const RANGE = `must be a whole number from ${MIN_SPEAKERS_HINT} to ${MAX_SPEAKERS_HINT}`;

/** The cross-field rules, on values already known to be whole numbers in range. */
function crossFieldDetails(h: SpeakerHints): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  if (h.numSpeakers !== undefined) {
    for (const f of ['minSpeakers', 'maxSpeakers'] as const) {
      if (h[f] !== undefined) details.push({ path: `/${f}`, message: 'cannot be combined with numSpeakers: give an exact count, or a range' });
    }
  } else if (h.minSpeakers !== undefined && h.maxSpeakers !== undefined && h.minSpeakers > h.maxSpeakers) {
    details.push({ path: '/minSpeakers', message: `must not be more than maxSpeakers (${h.maxSpeakers})` });
  }
  return details;
}

/**
 * Reads the hint fields of an upload form (text). Answers the details at fault instead of
 * throwing, so that the upload reports them with its other field errors.
 */
export function hintsFromForm(fields: Partial<Record<HintField, string>>): { hints: SpeakerHints | null; details: ErrorDetail[] } {
  const hints: SpeakerHints = {};
  const details: ErrorDetail[] = [];
  for (const f of HINT_FIELDS) {
    const raw = fields[f];
    if (raw === undefined) continue;
    const n = /^\s*\d{1,3}\s*$/.test(raw) ? Number(raw) : NaN;
    if (!Number.isInteger(n) || n < MIN_SPEAKERS_HINT || n > MAX_SPEAKERS_HINT) details.push({ path: `/${f}`, message: RANGE });
    else hints[f] = n;
  }
  if (details.length === 0) details.push(...crossFieldDetails(hints));
  return { hints: details.length === 0 && Object.keys(hints).length > 0 ? hints : null, details };
}

/**
 * The hints a re-analysis runs with: the body's when it names any hint field (null values are
 * "not set"), else the stored ones. The body's schema has already checked each value.
 */
export function hintsFromBody(body: ReanalyzeBody, stored: SpeakerHints | null): SpeakerHints | null {
  if (!HINT_FIELDS.some((f) => f in body)) return stored;
  const hints: SpeakerHints = {};
  for (const f of HINT_FIELDS) {
    const v = body[f];
    if (typeof v === 'number') hints[f] = v;
  }
  const details = crossFieldDetails(hints);
  if (details.length > 0) throw new ApiError('VALIDATION_FAILED', 'The speaker-count hints are not valid; see details.', { details });
  return Object.keys(hints).length > 0 ? hints : null;
}

/** The hints as the engine reads them. */
export function engineHint(h: SpeakerHints | null): SpeakerCountHint | undefined {
  if (!h) return undefined;
  if (h.numSpeakers !== undefined) return { exact: h.numSpeakers };
  return { ...(h.minSpeakers !== undefined ? { min: h.minSpeakers } : {}), ...(h.maxSpeakers !== undefined ? { max: h.maxSpeakers } : {}) };
}
