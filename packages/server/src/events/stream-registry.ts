// Open event streams (SSE), by API key and workspace: each key and each workspace may hold only so
// many at once, and a key that is revoked loses its streams. A revocation through this process
// ends them at once; one made elsewhere (the admin CLI on the same store) within the re-check
// interval (STREAM_RECHECK_SEC, 15 s), when every streaming key is authenticated again. A key that
// cannot be checked because the store does not answer loses its streams too, ended cleanly (its
// client reconnects with Last-Event-ID once the store is back): before issue 32 (finding 4) the
// re-check's rejection was left unhandled and ended the process.
import { apiKeyOf } from '../http/api-key.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { requireAuth, type AuthContext } from '../workspace/auth.ts';
import { ApiError } from '../errors.ts';

export const MAX_STREAMS_PER_KEY = 10;
export const MAX_STREAMS_PER_WORKSPACE = 50;

interface OpenStream {
  apiKey: string;
  close: () => void;
}

export class StreamRegistry {
  private readonly byKey = new Map<string, Set<OpenStream>>();
  private readonly perWorkspace = new Map<string, number>();
  private readonly authenticate: (apiKey: string) => Promise<AuthContext | null>;
  private readonly recheckMs: number;
  private timer: NodeJS.Timeout | null = null;

  constructor(authenticate: (apiKey: string) => Promise<AuthContext | null>, recheckMs = 15_000) {
    this.authenticate = authenticate;
    this.recheckMs = recheckMs;
  }

  /**
   * Registers a stream that `close` ends; answers its release (call when the stream ends), or
   * null when the key or the workspace already holds its maximum of open streams.
   */
  open(auth: AuthContext, apiKey: string, close: () => void): (() => void) | null {
    const streams = this.byKey.get(auth.keyId) ?? new Set<OpenStream>();
    const inWorkspace = this.perWorkspace.get(auth.workspaceId) ?? 0;
    if (streams.size >= MAX_STREAMS_PER_KEY || inWorkspace >= MAX_STREAMS_PER_WORKSPACE) return null;
    const entry: OpenStream = { apiKey, close };
    streams.add(entry);
    this.byKey.set(auth.keyId, streams);
    this.perWorkspace.set(auth.workspaceId, inWorkspace + 1);
    this.timer ??= setInterval(() => {
      this.recheck().catch(() => undefined); // recheck handles each key's failure itself
    }, this.recheckMs).unref();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      streams.delete(entry);
      if (streams.size === 0) this.byKey.delete(auth.keyId);
      const left = (this.perWorkspace.get(auth.workspaceId) ?? 1) - 1;
      if (left > 0) this.perWorkspace.set(auth.workspaceId, left);
      else this.perWorkspace.delete(auth.workspaceId);
      if (this.byKey.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = null;
      }
    };
  }

  /** Ends every open stream of a key (it was revoked). */
  closeKey(keyId: string): void {
    for (const s of [...(this.byKey.get(keyId) ?? [])]) s.close();
  }

  /**
   * Ends the streams of keys that no longer authenticate (revoked by another process), and of
   * keys that cannot be checked now (the store is unreachable).
   */
  async recheck(): Promise<void> {
    for (const [keyId, streams] of [...this.byKey]) {
      const first = streams.values().next().value;
      if (!first) continue;
      const valid = await this.authenticate(first.apiKey).then((auth) => auth !== null, () => false);
      if (!valid) this.closeKey(keyId);
    }
  }

  /** Ends every stream (shutdown). */
  closeAll(): void {
    for (const keyId of [...this.byKey.keys()]) this.closeKey(keyId);
  }
}

/**
 * Counts the stream a request is about to open against its key's and workspace's limits (429
 * beyond them), and ends it when the key is revoked; the count drops when the connection closes.
 */
export function registerStream(registry: StreamRegistry, req: FastifyRequest, reply: FastifyReply): void {
  const auth = requireAuth(req.auth);
  const sent = apiKeyOf(req.headers);
  const apiKey = sent.key ?? '';
  const release = registry.open(auth, apiKey, () => {
    reply.raw.end();
    req.raw.socket?.destroy();
  });
  if (!release) {
    throw new ApiError('RATE_LIMITED', `At most ${MAX_STREAMS_PER_KEY} event streams per API key and ${MAX_STREAMS_PER_WORKSPACE} per workspace may be open at once; close one first.`, {
      retryAfter: 5,
      headers: { 'retry-after': '5' },
    });
  }
  req.raw.once('close', release);
}
