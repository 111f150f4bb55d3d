// Workspace administration (decisions §3): the workspace, its API keys and its webhook signing
// secret. Every route is `admin`: the authentication hook answers 403 to a standard key.
import type { FastifyInstance } from 'fastify';
import { Type, type Static, type TSchema } from 'typebox';
import type { Services } from '../compose/services.ts';
import { requireAuth } from './auth.ts';
import { ApiError } from '../errors.ts';
import { ListOf, ListQuery, LabelText, Nullable, Strict } from '../http/schema-helpers.ts';
import { decodeCursor, encodeCursor, InvalidCursor } from '../store/cursor.ts';
import type { ApiKeyRecord, SigningSecrets } from './workspace.store.ts';

const QuotaFigures = (what: string) =>
  Strict({
    apiKeys: Type.Integer({ minimum: 0, description: `active (not revoked) API keys: ${what}` }),
    mediaBytes: Type.Integer({ minimum: 0, description: `bytes of stored media, transcripts included: ${what}` }),
  });

const Workspace = Strict({
  id: Type.String(),
  name: Type.String(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  quotas: QuotaFigures('the most the workspace may hold (beyond it, 409 QUOTA_EXCEEDED)'),
  usage: QuotaFigures('what the workspace holds now'),
});

const ApiKey = Strict({
  id: Type.String(),
  scope: Type.Union([Type.Literal('admin'), Type.Literal('standard')]),
  name: Nullable(Type.String()),
  hint: Type.String({ description: 'the first and last characters of the key; the key itself is shown once' }),
  createdAt: Type.String(),
  revokedAt: Nullable(Type.String()),
});

const CreatedApiKey = Strict({ ...ApiKey.properties, apiKey: Type.String({ description: 'the key; shown only in this answer' }) });

const CreateKeyBody = Strict({
  scope: Type.Optional(Type.Union([Type.Literal('admin'), Type.Literal('standard')], { default: 'standard' })),
  name: Type.Optional(LabelText()),
});
type CreateKeyBody = Static<typeof CreateKeyBody>;

const KeyIdParams = Strict({ keyId: Type.String({ minLength: 1, maxLength: 256 }) });

const SigningSecret = Strict({
  signingSecret: Type.String({ description: 'signs every delivery (whsec_…); the HMAC key is the whole string' }),
  previousSigningSecret: Nullable(Type.String({ description: 'the rotated-out secret, still signing too until previousExpiresAt' })),
  previousExpiresAt: Nullable(Type.String()),
});

async function signingSecretOf(secrets: Promise<SigningSecrets>): Promise<Static<typeof SigningSecret>> {
  const s = await secrets;
  return { signingSecret: s.current, previousSigningSecret: s.secrets[1] ?? null, previousExpiresAt: s.previousExpiresAt };
}

const toKey = (k: ApiKeyRecord): Static<typeof ApiKey> => ({ id: k.id, scope: k.scope, name: k.name, hint: k.hint, createdAt: k.createdAt, revokedAt: k.revokedAt });

const admin = (summary: string, status: number, description: string, schema?: TSchema, errors: Record<number, string> = {}, bodyOptional = false) => ({
  admin: true,
  doc: {
    summary,
    tags: ['workspace'],
    ...(bodyOptional ? { bodyOptional } : {}),
    responses: { [status]: { description, ...(schema ? { schema } : {}) }, ...Object.fromEntries(Object.entries(errors).map(([s, d]) => [s, { description: d }])) },
  },
});

export function registerWorkspaceRoutes(app: FastifyInstance, services: Services): void {
  const ws = services.workspace;

  app.get('/v1/workspace', {
    config: admin('The workspace of the key', 200, 'The workspace', Workspace),
  }, async (req) => {
    const id = requireAuth(req.auth).workspaceId;
    const [w, limits] = await Promise.all([ws.get(id), ws.quotasAndUsage(id)]);
    return { id: w.id, name: w.name, createdAt: w.createdAt, updatedAt: w.updatedAt, ...limits };
  });

  app.get('/v1/workspace/keys', {
    schema: { querystring: ListQuery },
    config: admin('API keys of the workspace, newest first (revoked ones included)', 200, 'A page of keys', ListOf(ApiKey)),
  }, async (req) => {
    const q = req.query as Static<typeof ListQuery>;
    // A workspace has few keys: they are read whole and paged here by position.
    const keys = await ws.listKeys(requireAuth(req.auth).workspaceId);
    let start = 0;
    try {
      start = q.cursor ? decodeCursor(q.cursor) : 0;
    } catch (err) {
      if (err instanceof InvalidCursor) throw new ApiError('VALIDATION_FAILED', err.message, { details: [{ path: '/query/cursor', message: err.message }] });
      throw err;
    }
    const limit = q.limit ?? 20;
    const page = keys.slice(start, start + limit);
    return { data: page.map(toKey), nextCursor: start + limit < keys.length ? encodeCursor(start + limit) : null };
  });

  app.post('/v1/workspace/keys', {
    schema: { body: CreateKeyBody },
    // Every field is optional (bodyOptional), so a POST without any body means `{}`.
    config: {
      ...admin('Create an API key (shown once, in this answer)', 201, 'The key, with the secret apiKey', CreatedApiKey, {
        409: 'QUOTA_EXCEEDED: the workspace already holds its quota of active keys (MAX_API_KEYS); revoke one first',
      }, true),
      revealsSecret: true,
    },
  }, async (req, reply) => {
    const body = req.body as CreateKeyBody;
    const created = await ws.createKey(requireAuth(req.auth).workspaceId, body.scope ?? 'standard', body.name ?? null);
    return reply.code(201).send({ ...toKey(created), apiKey: created.apiKey });
  });

  app.delete('/v1/workspace/keys/:keyId', {
    schema: { params: KeyIdParams },
    config: admin('Revoke an API key (the last live admin key cannot be revoked)', 204, 'Revoked'),
  }, async (req, reply) => {
    const auth = requireAuth(req.auth);
    // The last live admin key is refused (409) in the same transaction as the revoke.
    await ws.revokeKey(auth.workspaceId, (req.params as Static<typeof KeyIdParams>).keyId, { keepLastAdmin: true });
    return reply.code(204).send();
  });

  app.get('/v1/workspace/signing-secret', {
    config: admin('Reveal the webhook signing secret(s)', 200, 'The signing secret, and the previous one during its grace period', SigningSecret),
  }, async (req) => signingSecretOf(ws.signingSecrets(requireAuth(req.auth).workspaceId)));

  app.post('/v1/workspace/signing-secret/rotate', {
    config: { ...admin('Rotate the webhook signing secret (the old one keeps signing too for 24 h)', 200, 'The new signing secret', SigningSecret), revealsSecret: true },
  }, async (req) => signingSecretOf(ws.rotateSigningSecret(requireAuth(req.auth).workspaceId)));
}
