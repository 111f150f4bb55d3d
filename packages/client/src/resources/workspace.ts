// /v1/workspace*: administration, for admin-scoped keys only (decisions.md §3).
import { PagePromise } from '../core/pagination.ts';
import type { HttpClient } from '../core/http.ts';
import { pathFor } from '../endpoints.ts';
import type { List, ListParams, RequestOptions } from '../common-types.ts';
import type { ApiKey, ApiKeyCreateParams, CreatedApiKey, SigningSecret, Workspace as WorkspaceInfo } from '../account-types.ts';

export class WorkspaceKeys {
  readonly #http: HttpClient;
  constructor(http: HttpClient) {
    this.#http = http;
  }

  list(params: ListParams = {}, options?: RequestOptions): PagePromise<ApiKey> {
    return new PagePromise((cursor) =>
      this.#http.request<List<ApiKey>>({ ...pathFor('workspace.keys.list'), query: { ...params, cursor }, options }), params.cursor);
  }

  /** The answer holds the key itself (`apiKey`), shown this once. */
  create(params: ApiKeyCreateParams = {}, options?: RequestOptions): Promise<CreatedApiKey> {
    return this.#http.request({ ...pathFor('workspace.keys.create'), body: params, options });
  }

  revoke(keyId: string, options?: RequestOptions): Promise<void> {
    return this.#http.request({ ...pathFor('workspace.keys.revoke', { keyId }), options });
  }
}

export class Workspace {
  readonly #http: HttpClient;
  readonly keys: WorkspaceKeys;
  constructor(http: HttpClient) {
    this.#http = http;
    this.keys = new WorkspaceKeys(http);
  }

  retrieve(options?: RequestOptions): Promise<WorkspaceInfo> {
    return this.#http.request({ ...pathFor('workspace.retrieve'), options });
  }

  signingSecret(options?: RequestOptions): Promise<SigningSecret> {
    return this.#http.request({ ...pathFor('workspace.signingSecret'), options });
  }

  /** A new secret; the old one keeps signing too for 24 h. */
  rotateSigningSecret(options?: RequestOptions): Promise<SigningSecret> {
    return this.#http.request({ ...pathFor('workspace.rotateSigningSecret'), options });
  }
}
