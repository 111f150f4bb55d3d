// /v1/feedback: a rating of a result.
import { PagePromise } from '../core/pagination.ts';
import type { HttpClient } from '../core/http.ts';
import { pathFor } from '../endpoints.ts';
import type { List, ListParams, RequestOptions } from '../common-types.ts';
import type { Feedback as FeedbackItem, FeedbackCreateParams } from '../account-types.ts';

export class Feedback {
  readonly #http: HttpClient;
  constructor(http: HttpClient) {
    this.#http = http;
  }

  create(params: FeedbackCreateParams, options?: RequestOptions): Promise<FeedbackItem> {
    return this.#http.request({ ...pathFor('feedback.create'), body: params, options });
  }

  list(params: ListParams = {}, options?: RequestOptions): PagePromise<FeedbackItem> {
    return new PagePromise((cursor) =>
      this.#http.request<List<FeedbackItem>>({ ...pathFor('feedback.list'), query: { ...params, cursor }, options }), params.cursor);
  }
}
