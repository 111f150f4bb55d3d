// /v1/webhooks/deliveries: the delivery log, each attempt, and manual redelivery (decisions.md §8).
import { PagePromise } from '../core/pagination.ts';
import type { HttpClient } from '../core/http.ts';
import { pathFor } from '../endpoints.ts';
import type { List, RequestOptions } from '../common-types.ts';
import type { DeliveryListParams, WebhookDelivery } from '../account-types.ts';

export class WebhookDeliveries {
  readonly #http: HttpClient;
  constructor(http: HttpClient) {
    this.#http = http;
  }

  list(params: DeliveryListParams = {}, options?: RequestOptions): PagePromise<WebhookDelivery> {
    return new PagePromise((cursor) =>
      this.#http.request<List<WebhookDelivery>>({ ...pathFor('webhooks.deliveries.list'), query: { ...params, cursor }, options }), params.cursor);
  }

  retrieve(id: string, options?: RequestOptions): Promise<WebhookDelivery> {
    return this.#http.request({ ...pathFor('webhooks.deliveries.retrieve', { id }), options });
  }

  redeliver(id: string, options?: RequestOptions): Promise<WebhookDelivery> {
    return this.#http.request({ ...pathFor('webhooks.deliveries.redeliver', { id }), options });
  }
}

/** `client.webhooks.deliveries.*`, leaving room beside it for the signature helpers. */
export class Webhooks {
  readonly deliveries: WebhookDeliveries;
  constructor(http: HttpClient) {
    this.deliveries = new WebhookDeliveries(http);
  }
}
