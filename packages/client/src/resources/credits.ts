// /v1/credits: the balance and the ledger (decisions.md §10).
import { PagePromise } from '../core/pagination.ts';
import type { HttpClient } from '../core/http.ts';
import { pathFor } from '../endpoints.ts';
import type { List, ListParams, RequestOptions } from '../common-types.ts';
import type { CreditBalance, CreditTransaction } from '../account-types.ts';

export class Credits {
  readonly #http: HttpClient;
  constructor(http: HttpClient) {
    this.#http = http;
  }

  balance(options?: RequestOptions): Promise<CreditBalance> {
    return this.#http.request({ ...pathFor('credits.balance'), options });
  }

  transactions(params: ListParams = {}, options?: RequestOptions): PagePromise<CreditTransaction> {
    return new PagePromise((cursor) =>
      this.#http.request<List<CreditTransaction>>({ ...pathFor('credits.transactions'), query: { ...params, cursor }, options }), params.cursor);
  }
}
