// The kinds of success response a route doc declares (http/context.ts) and what the
// builder writes for each. A media type given without the schema of its body has nowhere to go
// in an OpenAPI response, and the builder used to drop it without a word (the HTML routes were
// documented with no content that way): the type now refuses it. Those lines are held by the
// compiler: an @ts-expect-error under which it finds no error fails `npm run typecheck`.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RouteOptions } from 'fastify';
import { Type } from 'typebox';
import type { RouteDoc } from './context.ts';
import { OpenApiBuilder } from './openapi.ts';

type ResponseDoc = RouteDoc['responses'][number];

/** The document's answer to GET /v1/thing with this 200 response. */
function documented(response: ResponseDoc): Record<string, unknown> {
  const builder = new OpenApiBuilder();
  const route = { method: 'GET', url: '/v1/thing', handler: () => undefined, config: { doc: { summary: 'a thing', tags: ['t'], responses: { 200: response } } } };
  builder.collect(route as RouteOptions);
  const paths = builder.build().paths as Record<string, Record<string, { responses: Record<string, Record<string, unknown>> }>>;
  const ok = paths['/v1/thing']?.get?.responses['200'];
  assert.ok(ok);
  return ok;
}

describe('a route doc\'s success response', () => {
  it('cannot give a media type or alternatives without the schema of the body, nor a schema to a file', () => {
    const refused: ResponseDoc[] = [
      // @ts-expect-error a media type without the schema of its body
      { description: 'The HTML report', contentType: 'text/html' },
      // @ts-expect-error other media types of a resource whose schema is not given
      { description: 'Also as CSV', alternatives: ['text/csv'] },
      // @ts-expect-error a file's bytes are any media type, with no schema
      { description: 'The file', binary: true, schema: Type.String() },
    ];
    assert.equal(refused.length, 3, 'checked by the compiler, above');
  });

  it('puts a body\'s schema under its media type, JSON by default, with its alternatives', () => {
    const html = Type.String({ contentMediaType: 'text/html' });
    assert.deepEqual(documented({ description: 'HTML', schema: html, contentType: 'text/html' }).content, { 'text/html': { schema: html } });
    const json = Type.Object({ id: Type.String() });
    assert.deepEqual(documented({ description: 'JSON', schema: json, alternatives: ['text/csv'] }).content, {
      'application/json': { schema: json },
      'text/csv': { schema: { type: 'string' } },
    });
  });

  it('gives a file\'s bytes as any media type, and no content to a response without a body', () => {
    assert.deepEqual(documented({ description: 'The file', binary: true }).content, { '*/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } });
    assert.deepEqual(documented({ description: 'Deleted' }), { description: 'Deleted' });
  });
});
