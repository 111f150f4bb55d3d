// Request validation: bodies are checked strictly (unknown fields refused, no type coercion,
// string lengths in code points: Ajv counts surrogate pairs as one character); query strings
// and path parameters arrive as text, so they alone are coerced to the numbers they declare.
import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { ErrorDetail } from '../errors.ts';
import { NO_CONTROLS_MESSAGE, NO_CONTROLS_PATTERN } from '../control-chars.ts';

// ajv-formats is CommonJS; its default export arrives wrapped under Node's ESM interop.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;

function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    removeAdditional: false,
    coerceTypes: coerce,
    useDefaults: false,
    discriminator: true,
    strict: false,
    // The value at fault travels with each error, so that a length message can say the length given.
    verbose: true,
  });
  addFormats(ajv);
  return ajv;
}

const bodyAjv = makeAjv(false);
const paramAjv = makeAjv(true);

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : paramAjv;
  return ajv.compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;
};

/**
 * At most this many details are listed (then one saying how many more): a body of thousands of
 * bad items costs linear time and a bounded answer.
 */
export const MAX_DETAILS = 100;

/** A string's length at fault, in code points: what was given beside the limit (issue 40 item 9). */
export function lengthMessage(given: number, limit: number, tooLong: boolean): string {
  if (tooLong) return `is ${given} characters long; the limit is ${limit}`;
  return given === 0 ? `is empty: give at least ${limit} character${limit === 1 ? '' : 's'}` : `is ${given} characters long; at least ${limit} are needed`;
}

/** Ajv errors as `details`: one JSON Pointer per field at fault, the pointer into the body. */
export function ajvDetails(errors: ErrorObject[], part: string): ErrorDetail[] {
  const prefix = part === 'body' ? '' : `/${part === 'querystring' ? 'query' : part}`;
  const seen = new Set<string>();
  const details: ErrorDetail[] = [];
  // The alternatives of a union at one path (TypeBox writes a set of literals, and a nullable
  // field, as anyOf) are one fault: one detail naming them all (`must be one of: matching, report`,
  // `must be integer or null`), as an enum's is, not one detail per alternative.
  const alternatives = new Map<string, { detail: ErrorDetail; keyword: 'const' | 'type'; values: string[] }>();
  // Past a few times the listed maximum, deeper errors are only counted: the work per error
  // then is a comparison, whatever the body holds. Top-level ones are always read.
  let unread = 0;
  for (const e of errors) {
    if (details.length >= MAX_DETAILS * 4 && e.instancePath.indexOf('/', 1) >= 0) {
      unread++;
      continue;
    }
    let path = e.instancePath;
    let message = e.message ?? 'is not valid';
    if (e.keyword === 'required') {
      path += `/${escapePointer(String(e.params.missingProperty))}`;
      message = 'is required';
    } else if (e.keyword === 'additionalProperties') {
      path += `/${escapePointer(String(e.params.additionalProperty))}`;
      message = 'is not an allowed field';
    } else if (e.keyword === 'discriminator') {
      path += '/type';
      message = 'must be one of the allowed type values';
    } else if (e.keyword === 'enum') {
      message = `must be one of: ${(e.params.allowedValues as unknown[]).map(String).join(', ')}`;
    } else if (e.keyword === 'pattern' && e.params.pattern === NO_CONTROLS_PATTERN) {
      message = NO_CONTROLS_MESSAGE;
    } else if ((e.keyword === 'maxLength' || e.keyword === 'minLength') && typeof e.data === 'string') {
      message = lengthMessage([...e.data].length, Number(e.params.limit), e.keyword === 'maxLength');
    } else if (e.keyword === 'const') {
      message = `must be ${JSON.stringify(e.params.allowedValue)}`;
    }
    const full = prefix + path || '/';
    if (e.keyword === 'const' || e.keyword === 'type') {
      const value = e.keyword === 'const' ? String(e.params.allowedValue) : String(e.params.type);
      const alt = alternatives.get(`${full}|${e.keyword}`);
      if (alt) {
        if (!alt.values.includes(value)) alt.values.push(value);
        alt.detail.message = e.keyword === 'const' ? `must be one of: ${alt.values.join(', ')}` : `must be ${alt.values.join(' or ')}`;
        continue;
      }
      const detail = { path: full, message };
      alternatives.set(`${full}|${e.keyword}`, { detail, keyword: e.keyword, values: [value] });
      details.push(detail);
      continue;
    }
    const key = `${full}|${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    details.push({ path: full, message });
  }
  // A union failure ("must match a schema in anyOf") next to a precise error on the same or a
  // deeper path adds nothing: keep only the precise one. The paths under precise errors are
  // collected once, so that this stays linear in the number of errors.
  const isUnion = (d: ErrorDetail): boolean => /anyOf|oneOf/.test(d.message);
  const covered = new Set<string>();
  for (const d of details) {
    if (isUnion(d)) continue;
    for (let p = d.path; ; ) {
      covered.add(p);
      const cut = p.lastIndexOf('/');
      if (cut <= 0) break;
      p = p.slice(0, cut);
    }
    covered.add('/');
  }
  // A type fault beside another fault at the same path is a union's other alternative (a nullable
  // label with a control character: `must be null` beside the control-character rule): the value
  // has the right type for the alternative that says what is wrong with it, so only that one is kept.
  const typeOnly = new Set([...alternatives.values()].filter((a) => a.keyword === 'type').map((a) => a.detail));
  const otherAt = new Set(details.filter((d) => !typeOnly.has(d) && !isUnion(d)).map((d) => d.path));
  const precise = details.filter((d) => !(isUnion(d) && covered.has(d.path)) && !(typeOnly.has(d) && otherAt.has(d.path)));
  // Top-level faults (a group over its size limit) come first: they are the first thing to fix.
  const topLevel = (d: ErrorDetail): boolean => d.path.indexOf('/', 1) < 0;
  const kept = [...precise.filter(topLevel), ...precise.filter((d) => !topLevel(d))];
  if (kept.length <= MAX_DETAILS && unread === 0) return kept;
  const more = kept.length - Math.min(kept.length, MAX_DETAILS) + unread;
  return [...kept.slice(0, MAX_DETAILS), { path: '/', message: `and about ${more} more errors` }];
}

function escapePointer(s: string): string {
  return s.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function validationError(path: string, message: string): ErrorDetail {
  return { path, message };
}
