// Authentication, workspace bootstrap (decisions §3) and workspace administration.
import type { AuthContext } from './auth.ts';
import { ApiError } from '../errors.ts';
import {
  generateApiKey,
  generateSigningSecret,
  RotationTooSoon,
  type ApiKeyRecord,
  type KeyScope,
  type WorkspaceRecord,
  type WorkspaceStore,
} from './workspace.store.ts';
import { quotasOf, QuotaExceeded, type Quotas, type QuotaUsage } from './quotas.ts';
import type { Config } from '../config.ts';
import { SingleFlight } from '../single-flight.ts';

export interface BootstrapResult {
  workspaceId: string;
  /** Set only when the server generated them (shown once). */
  generated: { apiKey: string; signingSecret: string } | null;
  /** What the environment asked for and was not applied, for the operator's log. */
  warnings: string[];
}

/** How long a known key is trusted without asking the store again. */
export const AUTH_CACHE_MS = 1000;
const AUTH_CACHE_MAX = 10_000;

export class WorkspaceService {
  private readonly authCache = new Map<string, { auth: AuthContext; until: number }>();
  private readonly authLookups = new SingleFlight<string, AuthContext | null>();
  /** Counts this process's revokes, so that a lookup under way during one is not remembered. */
  private revocations = 0;
  private readonly revokedListeners: ((keyId: string) => void)[] = [];
  private readonly store: WorkspaceStore;
  private readonly initialCredits: number;
  private readonly quotaDefaults: Pick<Config, 'maxApiKeys' | 'mediaQuotaBytes'>;

  constructor(store: WorkspaceStore, initialCredits: number, quotaDefaults: Pick<Config, 'maxApiKeys' | 'mediaQuotaBytes'>) {
    this.store = store;
    this.initialCredits = initialCredits;
    this.quotaDefaults = quotaDefaults;
  }

  /** The workspace's quotas in force: the operator's numbers for it, else the configuration's. */
  async quotas(workspaceId: string): Promise<Quotas> {
    return quotasOf(this.quotaDefaults, await this.store.getQuotas(workspaceId));
  }

  /** The quotas in force beside what the workspace holds against them (GET /v1/workspace). */
  async quotasAndUsage(workspaceId: string): Promise<{ quotas: Quotas; usage: QuotaUsage }> {
    const [quotas, usage] = await Promise.all([this.quotas(workspaceId), this.store.usage(workspaceId)]);
    return { quotas, usage };
  }

  /**
   * Every /v1 request authenticates, and the store lookup is a third of the cost of a cached
   * read (bench/run.ts). Known keys are therefore remembered for AUTH_CACHE_MS; unknown keys
   * never are (so a new key works at once). A revoke through this service clears the entry at
   * once; a revoke by another process (another API process, the admin CLI) takes effect within
   * AUTH_CACHE_MS. The requests that find a key's entry expired while its lookup runs wait for
   * that lookup instead of each making its own (under load, one per key and second, not tens).
   */
  async authenticate(apiKey: string, now: number = Date.now()): Promise<AuthContext | null> {
    const hit = this.authCache.get(apiKey);
    if (hit && hit.until > now) return hit.auth;
    return this.authLookups.run(apiKey, () => this.lookUp(apiKey, now));
  }

  private async lookUp(apiKey: string, now: number): Promise<AuthContext | null> {
    const revocations = this.revocations;
    const key = await this.store.authenticate(apiKey);
    if (!key) {
      this.authCache.delete(apiKey);
      return null;
    }
    const auth: AuthContext = { workspaceId: key.workspaceId, keyId: key.id, scope: key.scope, liveKeys: key.liveKeys, ...(key.rateLimits ? { rateLimits: key.rateLimits } : {}) };
    // A key revoked here while it was being looked up may have been read before the revoke: not remembered.
    if (revocations !== this.revocations) return auth;
    if (this.authCache.size >= AUTH_CACHE_MAX) this.authCache.clear();
    this.authCache.set(apiKey, { auth, until: now + AUTH_CACHE_MS });
    return auth;
  }

  /** Called with the id of every key this process revokes (its open streams end). */
  onKeyRevoked(listener: (keyId: string) => void): void {
    this.revokedListeners.push(listener);
  }

  /**
   * At start: with SERVICE_API_KEY / SIGNING_SECRET set, the default (first) workspace is created
   * if missing and given exactly that key and secret; with neither set and no workspace, both
   * are generated and returned so that the caller prints them once.
   */
  async bootstrap(env: { serviceApiKey: string | null; signingSecret: string | null }): Promise<BootstrapResult> {
    let existing = await this.store.anyWorkspace();
    if (!existing) {
      const apiKey = env.serviceApiKey ?? generateApiKey();
      const signingSecret = env.signingSecret ?? generateSigningSecret();
      try {
        const { workspace } = await this.store.createWorkspace({ name: 'default', apiKey, signingSecret, initialCredits: this.initialCredits });
        const generated = env.serviceApiKey || env.signingSecret ? null : { apiKey, signingSecret };
        await this.store.wasSigningSecret(workspace.id, signingSecret); // records it in the history
        return { workspaceId: workspace.id, generated, warnings: [] };
      } catch (err) {
        // Processes of one cluster starting together on an empty database: another one created
        // the workspace with the same SERVICE_API_KEY first (its key is unique); join it.
        existing = await this.store.anyWorkspace();
        if (!existing) throw err;
      }
    }
    // Later starts never undo an operator's change (decisions §3).
    const warnings: string[] = [];
    if (env.serviceApiKey) {
      const state = await this.store.ensureKey(existing.id, env.serviceApiKey);
      if (state === 'revoked') warnings.push('SERVICE_API_KEY names a key that was revoked; it stays revoked (401). Unset it or set a new key.');
      if (state === 'elsewhere') warnings.push('SERVICE_API_KEY names a key of another workspace; it is left as it is.');
    }
    if (env.signingSecret && !(await this.store.wasSigningSecret(existing.id, env.signingSecret))) {
      // A secret the workspace never had is installed as a rotation: the previous one keeps signing for 24 h.
      // An operator's change wins: with two secrets already graced, the older one's grace ends now.
      await this.store.rotateSigningSecret(existing.id, env.signingSecret, undefined, true);
    }
    return { workspaceId: existing.id, generated: null, warnings };
  }

  async createWorkspace(name: string): Promise<{ workspaceId: string; apiKey: string; signingSecret: string }> {
    const apiKey = generateApiKey();
    const signingSecret = generateSigningSecret();
    const { workspace } = await this.store.createWorkspace({ name, apiKey, signingSecret, initialCredits: this.initialCredits });
    return { workspaceId: workspace.id, apiKey, signingSecret };
  }

  async get(workspaceId: string): Promise<WorkspaceRecord> {
    const ws = await this.store.getWorkspace(workspaceId);
    if (!ws) throw new ApiError('NOT_FOUND', 'No such workspace.');
    return ws;
  }

  /**
   * A new key. Through the API a workspace holds at most its `apiKeys` quota of active keys (each
   * key has its own rate-limit windows, so unlimited keys would be unlimited requests); the
   * operator's command line (`byOperator`) is not held to it.
   */
  async createKey(workspaceId: string, scope: KeyScope, name: string | null, byOperator = false): Promise<ApiKeyRecord & { apiKey: string }> {
    const apiKey = generateApiKey();
    const max = byOperator ? undefined : (await this.quotas(workspaceId)).apiKeys;
    try {
      const record = await this.store.createKey(workspaceId, { apiKey, scope, name }, max);
      return { ...record, apiKey };
    } catch (err) {
      if (!(err instanceof QuotaExceeded)) throw err;
      throw new ApiError('QUOTA_EXCEEDED', `This workspace already holds ${err.used} active API keys, its limit (${err.limit}; MAX_API_KEYS, or the operator's \`rapport workspace limits --api-keys\`). Revoke one first.`);
    }
  }

  listKeys(workspaceId: string): Promise<ApiKeyRecord[]> {
    return this.store.listKeys(workspaceId);
  }

  /**
   * Revokes a key. With `keepLastAdmin` (the API) never the workspace's last live admin key
   * (409), checked atomically with the revoke; an operator's revoke may take any key.
   */
  async revokeKey(workspaceId: string, keyId: string, opts: { keepLastAdmin?: boolean } = {}): Promise<ApiKeyRecord> {
    this.revocations++;
    const key = opts.keepLastAdmin ? await this.store.revokeUnlessLastAdmin(workspaceId, keyId) : await this.store.revokeKey(workspaceId, keyId);
    this.revocations++;
    // Revoking the last admin key would lock the workspace out of its own administration.
    if (key === 'last_admin') throw new ApiError('CONFLICT', 'This is the last live admin key of the workspace; create another admin key before revoking it.');
    this.authLookups.clear();
    for (const [k, v] of this.authCache) if (v.auth.keyId === keyId) this.authCache.delete(k);
    for (const listener of this.revokedListeners) listener(keyId);
    if (!key) throw new ApiError('NOT_FOUND', `No API key ${keyId} in this workspace.`);
    return key;
  }

  signingSecrets(workspaceId: string) {
    return this.store.getSigningSecrets(workspaceId);
  }

  /** 409 while two rotated-out secrets are still in their grace: at most three sign at once. */
  async rotateSigningSecret(workspaceId: string) {
    try {
      return await this.store.rotateSigningSecret(workspaceId, generateSigningSecret());
    } catch (err) {
      if (!(err instanceof RotationTooSoon)) throw err;
      throw new ApiError('CONFLICT', `Two rotated-out signing secrets still sign (each for 24 h after its rotation; at most three secrets at once); rotate again after ${new Date(err.until).toISOString()}.`);
    }
  }
}
