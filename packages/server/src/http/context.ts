// Per-request state and per-route options that the hooks and the OpenAPI builder read.
import type { TSchema } from 'typebox';
import type { RateClass } from '../config.ts';
import type { AuthContext } from '../workspace/auth.ts';

interface ResponseDocBase {
  description: string;
  /** Response headers worth documenting, by name. */
  headers?: Record<string, string>;
}

/**
 * One success response: a body described by its schema (JSON unless `contentType` says otherwise,
 * `alternatives` being the same resource as text in other media types), the bytes of a file, or
 * no body (204). A media type needs the schema of its body: the OpenAPI document has nowhere to
 * put one without it, so the type refuses `contentType` or `alternatives` alone rather than the
 * document silently losing them.
 */
type ResponseDoc = ResponseDocBase & (
  | { schema: TSchema; contentType?: string; alternatives?: string[]; binary?: never }
  /** The body is the bytes of a file (any media type). */
  | { binary: true; schema?: never; contentType?: never; alternatives?: never }
  | { schema?: never; contentType?: never; alternatives?: never; binary?: never }
);

export interface RouteDoc {
  summary: string;
  tags: string[];
  /** Success responses by status code; errors are documented once for all routes. */
  responses: Record<number, ResponseDoc>;
  /** The multipart form the route reads (POST /v1/files), for the OpenAPI document. */
  multipart?: TSchema;
  /** The JSON body may be left out (the route then reads `{}`). */
  bodyOptional?: boolean;
  /** Whether the route needs no API key. */
  public?: boolean;
  /** The route also takes a content link's `?token=` in place of the key (OpenAPI: either scheme). */
  contentLink?: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyContextConfig {
    rateClass?: RateClass;
    admin?: boolean;
    /** The route honours idempotency keys itself, inside its own transaction (job creation). */
    ownIdempotency?: boolean;
    /** The route reads its body before taking the Idempotency-Key (claimIdempotencyKey): an upload. */
    idempotencyAfterBody?: boolean;
    /** The answer shows a secret once (a new API key, a new signing secret): it is never stored for replay. */
    revealsSecret?: boolean;
    doc?: RouteDoc;
  }
}
