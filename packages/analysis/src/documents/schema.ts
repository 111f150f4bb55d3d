// The result document's JSON Schema (interface-spec "Result document") and a dependency-free
// validator for it. The schema is exported for the server's OpenAPI document; the validator is
// what the tests (and the server, before storing a result) run.
import { ICON_NAMES } from './icons.ts';

const card = {
  type: 'object',
  additionalProperties: false,
  required: ['type', 'content', 'icon', 'title'],
  properties: {
    type: { const: 'card' },
    content: { type: 'string' },
    icon: { type: 'string' },
    title: { type: 'string' },
  },
} as const;

const block = {
  oneOf: [
    card,
    {
      type: 'object',
      additionalProperties: false,
      required: ['type', 'content'],
      properties: { type: { const: 'text' }, content: { type: 'string' }, title: { type: 'string' } },
    },
    {
      type: 'object',
      additionalProperties: false,
      required: ['type', 'columns', 'items'],
      properties: { type: { const: 'grid' }, columns: { enum: [2, 3, 4] }, items: { type: 'array', items: card } },
    },
    {
      type: 'object',
      additionalProperties: false,
      required: ['type', 'variant'],
      properties: { type: { const: 'illustration' }, variant: { enum: ['conversation', 'growth', 'connection', 'analysis'] } },
    },
  ],
} as const;

export const resultDocumentJsonSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'ResultDocument',
  type: 'object',
  additionalProperties: false,
  required: ['schemaVersion', 'title', 'summary', 'sections'],
  properties: {
    schemaVersion: { const: 1 },
    title: { type: 'string', minLength: 1 },
    summary: { type: 'string', minLength: 1 },
    sections: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['section_title', 'section_content'],
        properties: {
          section_title: { type: 'string' },
          section_content: {
            oneOf: [block, { type: 'array', items: block }, { type: 'object', additionalProperties: false, maxProperties: 0 }],
          },
        },
      },
    },
  },
} as const;

type Errors = string[];

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function onlyKeys(v: Record<string, unknown>, allowed: readonly string[], path: string, errors: Errors): void {
  for (const k of Object.keys(v)) if (!allowed.includes(k)) errors.push(`${path}/${k}: unknown field`);
}

function requireString(v: Record<string, unknown>, key: string, path: string, errors: Errors, minLength = 0): void {
  const value = v[key];
  if (typeof value !== 'string') errors.push(`${path}/${key}: must be a string`);
  else if (value.length < minLength) errors.push(`${path}/${key}: must have at least ${minLength} character`);
}

function validateCard(v: unknown, path: string, errors: Errors, strictIcons: boolean): void {
  if (!isObject(v) || v.type !== 'card') {
    errors.push(`${path}: must be a card block`);
    return;
  }
  onlyKeys(v, ['type', 'content', 'icon', 'title'], path, errors);
  requireString(v, 'content', path, errors);
  requireString(v, 'icon', path, errors);
  requireString(v, 'title', path, errors);
  if (strictIcons && typeof v.icon === 'string' && !ICON_NAMES.includes(v.icon)) errors.push(`${path}/icon: not in the icon set`);
}

function validateBlock(v: unknown, path: string, errors: Errors, strictIcons: boolean): void {
  if (!isObject(v)) {
    errors.push(`${path}: must be a block object`);
    return;
  }
  switch (v.type) {
    case 'card':
      validateCard(v, path, errors, strictIcons);
      return;
    case 'text':
      onlyKeys(v, ['type', 'content', 'title'], path, errors);
      requireString(v, 'content', path, errors);
      if ('title' in v && typeof v.title !== 'string') errors.push(`${path}/title: must be a string`);
      return;
    case 'grid':
      onlyKeys(v, ['type', 'columns', 'items'], path, errors);
      if (v.columns !== 2 && v.columns !== 3 && v.columns !== 4) errors.push(`${path}/columns: must be 2, 3 or 4`);
      if (!Array.isArray(v.items)) errors.push(`${path}/items: must be an array`);
      else v.items.forEach((item, i) => validateCard(item, `${path}/items/${i}`, errors, strictIcons));
      return;
    case 'illustration':
      onlyKeys(v, ['type', 'variant'], path, errors);
      if (!['conversation', 'growth', 'connection', 'analysis'].includes(v.variant as string)) errors.push(`${path}/variant: unknown variant`);
      return;
    default:
      errors.push(`${path}/type: unknown block type`);
  }
}

/**
 * Checks a value against the result document schema; returns the list of problems as
 * "JSON Pointer: message" (empty when valid). With `strictIcons`, card icons must also be in our
 * documented icon set (the schema itself allows any string).
 */
export function validateResultDocument(doc: unknown, options: { strictIcons?: boolean } = {}): string[] {
  const errors: Errors = [];
  const strictIcons = options.strictIcons ?? false;
  if (!isObject(doc)) return [': must be an object'];
  onlyKeys(doc, ['schemaVersion', 'title', 'summary', 'sections'], '', errors);
  if (doc.schemaVersion !== 1) errors.push('/schemaVersion: must be 1');
  requireString(doc, 'title', '', errors, 1);
  requireString(doc, 'summary', '', errors, 1);
  if (!Array.isArray(doc.sections) || doc.sections.length === 0) {
    errors.push('/sections: must be a non-empty array');
    return errors;
  }
  doc.sections.forEach((s, i) => {
    const path = `/sections/${i}`;
    if (!isObject(s)) {
      errors.push(`${path}: must be an object`);
      return;
    }
    onlyKeys(s, ['section_title', 'section_content'], path, errors);
    requireString(s, 'section_title', path, errors);
    const content = s.section_content;
    if (Array.isArray(content)) content.forEach((b, k) => validateBlock(b, `${path}/section_content/${k}`, errors, strictIcons));
    else if (isObject(content) && Object.keys(content).length === 0) return;
    else if (isObject(content)) validateBlock(content, `${path}/section_content`, errors, strictIcons);
    else errors.push(`${path}/section_content: must be a block, an array of blocks or {}`);
  });
  return errors;
}
