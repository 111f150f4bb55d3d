// /v1/entities: the people tracked across media; label, tag, untag, merge.
import { PagePromise } from '../core/pagination.ts';
import type { HttpClient } from '../core/http.ts';
import { pathFor } from '../endpoints.ts';
import type { List, RequestOptions } from '../common-types.ts';
import type { EntityMetrics } from '../measure-types.ts';
import type { Entity, EntityListParams, EntityMergeParams, EntityUpdateParams } from '../entity-types.ts';

export class Entities {
  readonly #http: HttpClient;
  constructor(http: HttpClient) {
    this.#http = http;
  }

  list(params: EntityListParams = {}, options?: RequestOptions): PagePromise<Entity> {
    return new PagePromise((cursor) =>
      this.#http.request<List<Entity>>({ ...pathFor('entities.list'), query: { ...params, cursor }, options }), params.cursor);
  }

  retrieve(id: string, options?: RequestOptions): Promise<Entity> {
    return this.#http.request({ ...pathFor('entities.retrieve', { id }), options });
  }

  /** The entity's profile over its analysed media and each appearance's measurements. */
  metrics(id: string, options?: RequestOptions): Promise<EntityMetrics> {
    return this.#http.request({ ...pathFor('entities.metrics', { id }), options });
  }

  /** Sets (or, with null, clears) the label. */
  update(id: string, params: EntityUpdateParams, options?: RequestOptions): Promise<Entity> {
    return this.#http.request({ ...pathFor('entities.update', { id }), body: params, options });
  }

  tag(id: string, tags: string[], options?: RequestOptions): Promise<Entity> {
    return this.#http.request({ ...pathFor('entities.tag', { id }), body: { tags }, options });
  }

  untag(id: string, tag: string, options?: RequestOptions): Promise<Entity> {
    return this.#http.request({ ...pathFor('entities.untag', { id, tag }), options });
  }

  /** Folds `from` into `into`: their appearances and tags move, the `from` entities disappear. */
  merge(params: EntityMergeParams, options?: RequestOptions): Promise<Entity> {
    return this.#http.request({ ...pathFor('entities.merge'), body: params, options });
  }
}
