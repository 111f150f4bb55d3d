// Request validation: bodies are checked strictly (unknown fields refused, no type coercion,
// string lengths in code points: Ajv counts surrogate pairs as one character); query strings
// and path parameters arrive as text, so they alone are coerced to the numbers they declare.
import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { ErrorDetail } from './errors.ts';

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

/** Ajv errors as `details`: one JSON Pointer per field at fault, the pointer into the body. */
export function ajvDetails(errors: ErrorObject[], part: string): ErrorDetail[] {
  const prefix = part === 'body' ? '' : `/${part === 'querystring' ? 'query' : part}`;
  const seen = new Set<string>();
  const details: ErrorDetail[] = [];
  for (const e of errors) {
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
    } else if (e.keyword === 'const') {
      message = `must be ${JSON.stringify(e.params.allowedValue)}`;
    }
    const full = prefix + path || '/';
    const key = `${full}|${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    details.push({ path: full, message });
  }
  // A union failure ("must match a schema in anyOf") next to a precise error on the same or a
  // deeper path adds nothing: keep only the precise one.
  return details.filter(
    (d) => !(/anyOf|oneOf/.test(d.message) && details.some((o) => o !== d && o.path.startsWith(d.path) && !/anyOf|oneOf/.test(o.message))),
  );
}

function escapePointer(s: string): string {
  return s.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function validationError(path: string, message: string): ErrorDetail {
  return { path, message };
}
