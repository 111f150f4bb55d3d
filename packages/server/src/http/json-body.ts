// JSON bodies, parsed as fastify does by default, except that an empty body is no body on a route
// that takes none or whose body is optional: many clients send `Content-Type: application/json`
// on every request, and `DELETE /v1/files/:id` with it and nothing after was 400 INVALID_JSON
// (issue 41, finding 11). A route that needs a body still gets INVALID_JSON for an empty one.
import type { FastifyInstance, FastifyRequest } from 'fastify';

interface BodyDoc { doc?: { bodyOptional?: boolean } }

export function takesNoBody(req: FastifyRequest): boolean {
  const route = req.routeOptions;
  return route.schema?.body === undefined || (route.config as BodyDoc | undefined)?.doc?.bodyOptional === true;
}

export function registerJsonBodyParser(app: FastifyInstance, bodyLimit: number): void {
  // Prototype and constructor poisoning refused, as fastify's own parser does by default.
  // It is the callback form (`done`), whatever the union type of body parsers says.
  const parse = app.getDefaultJsonParser('error', 'error') as (req: FastifyRequest, body: string, done: (err: Error | null, body?: unknown) => void) => void;
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, (req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text === '' && takesNoBody(req)) {
      done(null, undefined);
      return;
    }
    parse(req, text, done);
  });
}
