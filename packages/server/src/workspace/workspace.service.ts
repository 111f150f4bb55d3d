// Authentication, workspace bootstrap (decisions §3) and workspace administration.
import type { AuthContext } from '../http/context.ts';
import { ApiError } from '../http/errors.ts';
import {
  generateApiKey,
  generateSigningSecret,
  type ApiKeyRecord,
  type KeyScope,
  type WorkspaceRecord,
  type WorkspaceStore,
} from './workspace.store.ts';

export interface BootstrapResult {
  workspaceId: string;
  /** Set only when the server generated them (shown once). */
  generated: { apiKey: string; signingSecret: string } | null;
}

export class WorkspaceService {
  private readonly store: WorkspaceStore;
  private readonly initialCredits: number;

  constructor(store: WorkspaceStore, initialCredits: number) {
    this.store = store;
    this.initialCredits = initialCredits;
  }

  async authenticate(apiKey: string): Promise<AuthContext | null> {
    const key = await this.store.authenticate(apiKey);
    return key ? { workspaceId: key.workspaceId, keyId: key.id, scope: key.scope } : null;
  }

  /**
   * At start: with SERVICE_API_KEY / SIGNING_SECRET set, the default (first) workspace is created
   * if missing and given exactly that key and secret; with neither set and no workspace, both
   * are generated and returned so that the caller prints them once.
   */
  async bootstrap(env: { serviceApiKey: string | null; signingSecret: string | null }): Promise<BootstrapResult> {
    const existing = await this.store.anyWorkspace();
    if (!existing) {
      const apiKey = env.serviceApiKey ?? generateApiKey();
      const signingSecret = env.signingSecret ?? generateSigningSecret();
      const { workspace } = await this.store.createWorkspace({ name: 'default', apiKey, signingSecret, initialCredits: this.initialCredits });
      const generated = env.serviceApiKey || env.signingSecret ? null : { apiKey, signingSecret };
      return { workspaceId: workspace.id, generated };
    }
    if (env.serviceApiKey) await this.store.ensureKey(existing.id, env.serviceApiKey);
    if (env.signingSecret) {
      const { current } = await this.store.getSigningSecrets(existing.id);
      if (current !== env.signingSecret) await this.store.setSigningSecret(existing.id, env.signingSecret);
    }
    return { workspaceId: existing.id, generated: null };
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

  async createKey(workspaceId: string, scope: KeyScope, name: string | null): Promise<ApiKeyRecord & { apiKey: string }> {
    const apiKey = generateApiKey();
    const record = await this.store.createKey(workspaceId, { apiKey, scope, name });
    return { ...record, apiKey };
  }

  listKeys(workspaceId: string): Promise<ApiKeyRecord[]> {
    return this.store.listKeys(workspaceId);
  }

  async revokeKey(workspaceId: string, keyId: string): Promise<ApiKeyRecord> {
    const key = await this.store.revokeKey(workspaceId, keyId);
    if (!key) throw new ApiError('NOT_FOUND', `No API key ${keyId} in this workspace.`);
    return key;
  }

  signingSecrets(workspaceId: string) {
    return this.store.getSigningSecrets(workspaceId);
  }

  rotateSigningSecret(workspaceId: string) {
    return this.store.rotateSigningSecret(workspaceId, generateSigningSecret());
  }
}
