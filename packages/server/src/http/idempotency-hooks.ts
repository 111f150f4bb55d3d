// `Idempotency-Key` on every POST (decisions §5). Job creation completes its key inside the
// transaction that creates the job (JobService); every other POST goes through these hooks:
// the key is taken before the handler runs and completed with the response when it was a
// success, or freed on an error so that a retry runs the request again. Replays carry
// `Idempotent-Replayed: true`. An answer that shows a secret (a created API key, a rotated
// signing secret) is not kept: its replay is a 409 naming what was created, since a secret is
// shown once and stored only hashed. An upload's body is a stream that is not read before the
// handler: its route (`idempotencyAfterBody`) takes the key itself once the body is received,
// with what the body held (claimIdempotencyKey), so that other bytes under the same key are 422.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.ts';
import { requestHash, type IdempotencyScope, type IdempotencyStore, type StoredResponse } from '../idempotency/idempotency.store.ts';

const scopes = new WeakMap<FastifyRequest, IdempotencyScope>();
/** Keys of requests whose route takes them after reading the body, with the store to take them in. */
const deferred = new WeakMap<FastifyRequest, { scope: IdempotencyScope; store: IdempotencyStore }>();

export function idempotencyKeyOf(req: FastifyRequest): string | undefined {
  const raw = req.headers['idempotency-key'];
  if (raw === undefined) return undefined;
  const key = Array.isArray(raw) ? raw.join(',') : raw;
  if (key.length < 1 || [...key].length > 255) {
    throw new ApiError('VALIDATION_FAILED', 'The Idempotency-Key header must be 1 to 255 characters.', {
      details: [{ path: '/headers/idempotency-key', message: 'must be 1 to 255 characters' }],
    });
  }
  return key;
}

export function registerIdempotencyHooks(app: FastifyInstance, store: IdempotencyStore): void {
  app.addHook('preHandler', async (req, reply) => {
    if (req.method !== 'POST' || !req.auth || req.routeOptions.config?.ownIdempotency) return;
    const key = idempotencyKeyOf(req);
    if (key === undefined) return;
    const scope = { workspaceId: req.auth.workspaceId, route: `POST ${req.routeOptions.url}`, key };
    if (req.routeOptions.config?.idempotencyAfterBody) {
      deferred.set(req, { scope, store });
      return;
    }
    const replay = await take(store, req, scope, { params: req.params, body: req.body ?? null });
    if (replay) return sendReplay(reply, replay);
  });

  app.addHook('onSend', async (req, reply, payload) => {
    const scope = scopes.get(req);
    if (!scope) return payload;
    scopes.delete(req);
    if (reply.statusCode >= 200 && reply.statusCode < 300 && (typeof payload === 'string' || payload === null || payload === undefined)) {
      const location = reply.getHeader('location');
      if (req.routeOptions.config?.revealsSecret) {
        await store.complete(scope, { statusCode: reply.statusCode, body: { raw: '', contentType: null, secretShown: { id: createdId(payload) } }, headers: {} });
        return payload;
      }
      await store.complete(scope, {
        statusCode: reply.statusCode,
        body: { raw: payload ?? '', contentType: (reply.getHeader('content-type') as string | undefined) ?? null },
        headers: location ? { location: String(location) } : {},
      });
    } else {
      await store.release(scope);
    }
    return payload;
  });
}

/**
 * Takes the key of a request whose route reads its body first (an upload), with `material`
 * standing for the body (for an upload: its file's SHA-256, size and name, and its fields).
 * Answers the stored answer to replay (see sendReplay), or null when the request is new and
 * runs; throws 422, 409 as for any POST. Without an Idempotency-Key: null.
 */
export async function claimIdempotencyKey(req: FastifyRequest, material: unknown): Promise<StoredResponse | null> {
  const pending = deferred.get(req);
  if (!pending) return null;
  deferred.delete(req);
  return take(pending.store, req, pending.scope, { params: req.params, body: material });
}

async function take(store: IdempotencyStore, req: FastifyRequest, scope: IdempotencyScope, material: unknown): Promise<StoredResponse | null> {
  const taken = await store.take(scope, requestHash(material));
  if (taken.state === 'mismatch') throw new ApiError('IDEMPOTENCY_KEY_REUSED', 'This idempotency key was already used with a different request.');
  if (taken.state === 'in_flight') throw new ApiError('IDEMPOTENCY_KEY_IN_USE');
  if (taken.state === 'replay') {
    const stored = taken.response.body as { secretShown?: { id: string | null } };
    if (stored.secretShown) {
      const what = stored.secretShown.id ? ` (${stored.secretShown.id})` : '';
      throw new ApiError('CONFLICT', `The request with this Idempotency-Key succeeded${what}; its answer showed a secret, which is shown once and not kept, so it cannot be replayed.`);
    }
    return taken.response;
  }
  scopes.set(req, scope);
  return null;
}

/** Sends a stored answer again, marked `Idempotent-Replayed: true`. */
export function sendReplay(reply: FastifyReply, response: StoredResponse): FastifyReply {
  const stored = response.body as { raw: string; contentType: string | null };
  reply.headers(response.headers);
  reply.header('idempotent-replayed', 'true');
  if (stored.contentType) reply.type(stored.contentType);
  return reply.code(response.statusCode).send(stored.raw);
}

/** The id of what a secret-revealing answer created (an API key's `id`), if it has one. */
function createdId(payload: unknown): string | null {
  if (typeof payload !== 'string') return null;
  try {
    const id = (JSON.parse(payload) as { id?: unknown }).id;
    return typeof id === 'string' ? id : null;
  } catch {
    return null;
  }
}
