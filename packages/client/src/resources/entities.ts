// /v1/entities: the people tracked across media, their measurements (JSON or CSV); label, tag, untag, merge.
import { PagePromise } from '../core/pagination.ts';
import type { HttpClient } from '../core/http.ts';
import { pathFor } from '../endpoints.ts';
import type { List, RequestOptions } from '../common-types.ts';
import type { EntityMetrics, MetricsParams } from '../measure-types.ts';
import { metricsArgs, readMetrics } from './metrics-format.ts';
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

  /**
   * The entity's profile over its analysed media and each appearance's measurements; with
   * `{ format: 'csv' }`, the service's CSV file as text (the profile as media "all", then each appearance).
   */
  metrics(id: string, options?: RequestOptions): Promise<EntityMetrics>;
  metrics(id: string, params: MetricsParams & { format?: 'json' }, options?: RequestOptions): Promise<EntityMetrics>;
  metrics(id: string, params: { format: 'csv' }, options?: RequestOptions): Promise<string>;
  metrics(id: string, params?: MetricsParams | RequestOptions, options?: RequestOptions): Promise<EntityMetrics | string> {
    return readMetrics(this.#http, 'entities.metrics', id, ...metricsArgs(params, options)) as Promise<EntityMetrics | string>;
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
