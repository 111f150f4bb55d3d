// The delivery log and redelivery (decisions §8, extension), for the routes. Redelivery only
// writes to the store and wakes this process's dispatcher; in an `api`-only process the
// dispatcher of a worker process finds it on its next poll.
import { ApiError } from '../errors.ts';
import type { AuthContext } from '../workspace/auth.ts';
import { InvalidCursor } from '../store/cursor.ts';
import type { DeliveryListQuery, DeliveryRecord, WebhookStore } from './webhooks.store.ts';

export class WebhookService {
  readonly #store: WebhookStore;
  readonly #wake: () => void;

  constructor(store: WebhookStore, wake: () => void) {
    this.#store = store;
    this.#wake = wake;
  }

  async list(auth: AuthContext, query: DeliveryListQuery): Promise<{ data: DeliveryRecord[]; nextCursor: string | null }> {
    try {
      return await this.#store.list(auth.workspaceId, query);
    } catch (err) {
      if (err instanceof InvalidCursor) throw new ApiError('VALIDATION_FAILED', err.message, { details: [{ path: '/query/cursor', message: err.message }] });
      throw err;
    }
  }

  async get(auth: AuthContext, id: string): Promise<DeliveryRecord> {
    const delivery = await this.#store.get(auth.workspaceId, id);
    if (!delivery) throw new ApiError('NOT_FOUND', `No webhook delivery ${id}.`);
    return delivery;
  }

  async redeliver(auth: AuthContext, id: string): Promise<DeliveryRecord> {
    if (!(await this.#store.redeliver(auth.workspaceId, id, Date.now()))) throw new ApiError('NOT_FOUND', `No webhook delivery ${id}.`);
    this.#wake();
    return this.get(auth, id);
  }
}
