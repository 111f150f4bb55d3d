// Cursor pages (decisions.md §1: `{ data, nextCursor }`, newest first). A list call answers a
// `PagePromise`: `await` it for the first page, or `for await` over it for every item of every
// page, fetching the next page only when the loop gets there.
import type { List } from '../common-types.ts';

export type PageFetcher<T> = (cursor: string | undefined) => Promise<List<T>>;

export class Page<T> implements AsyncIterable<T> {
  readonly data: T[];
  readonly nextCursor: string | null;
  readonly #fetchPage: PageFetcher<T>;

  constructor(list: List<T>, fetchPage: PageFetcher<T>) {
    this.data = list.data;
    this.nextCursor = list.nextCursor ?? null;
    this.#fetchPage = fetchPage;
  }

  hasNextPage(): boolean {
    return this.nextCursor !== null;
  }

  async getNextPage(): Promise<Page<T>> {
    if (this.nextCursor === null) throw new Error('No next page: check hasNextPage() first');
    return new Page(await this.#fetchPage(this.nextCursor), this.#fetchPage);
  }

  /** Every page from this one on. */
  async *iterPages(): AsyncGenerator<Page<T>> {
    yield this;
    let cursor = this.nextCursor;
    while (cursor !== null) {
      const page: Page<T> = new Page(await this.#fetchPage(cursor), this.#fetchPage);
      yield page;
      cursor = page.nextCursor;
    }
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for await (const page of this.iterPages()) yield* page.data;
  }
}

/** Thenable for the first page, async-iterable over all items; the first request starts lazily once. */
export class PagePromise<T> implements PromiseLike<Page<T>>, AsyncIterable<T> {
  readonly #fetchPage: PageFetcher<T>;
  readonly #firstCursor: string | undefined;
  #first: Promise<Page<T>> | undefined;

  constructor(fetchPage: PageFetcher<T>, cursor?: string) {
    this.#fetchPage = fetchPage;
    this.#firstCursor = cursor;
  }

  #page(): Promise<Page<T>> {
    this.#first ??= this.#fetchPage(this.#firstCursor).then((list) => new Page(list, this.#fetchPage));
    return this.#first;
  }

  then<R1 = Page<T>, R2 = never>(
    onfulfilled?: ((value: Page<T>) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#page().then(onfulfilled, onrejected);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    yield* await this.#page();
  }
}
