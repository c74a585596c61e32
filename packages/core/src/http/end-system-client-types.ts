import type {
  KyInstance,
  Options,
  ResponsePromise as KyResponsePromise,
  SearchParamsOption,
} from 'ky';

// The names the client's types had before it was ky again (ARCHITECTURE.md, D17): each is now ky's own type.

/** The end-system client: ky's `KyInstance`. */
export type EndSystemClient = KyInstance;
/** Options of one call: ky's `Options`. */
export type EndSystemCallOptions = Options;
/** Query parameters of a call: ky's `searchParams` option. */
export type SearchParamsInput = SearchParamsOption;
/** One call of the client: `client.get`, `client.post`… */
export type EndSystemCall = KyInstance['get'];
/** The answer of a call: ky's `ResponsePromise`, a promise of the `Response` with `.json()` and the other shortcuts. */
export type ResponsePromise<T = unknown> = KyResponsePromise<T>;
