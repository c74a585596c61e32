import type {
  KyInstance,
  Options,
  ResponsePromise as KyResponsePromise,
  SearchParamsOption,
} from 'ky';

// The names the client's types had before it was ky again (ARCHITECTURE.md, D17): each is now ky's own type.

/**
 * The end-system client: ky's `KyInstance`.
 *
 * @example
 * ```ts
 * import {
 *   createEndSystemClient,
 *   type EndSystemClient,
 * } from '@connector-sdk/core/http';
 *
 * const acme: EndSystemClient = createEndSystemClient({
 *   baseUrl: 'https://acme.example/api/',
 * });
 * const issue = await acme.get('issues/42').json<{ id: string }>();
 * ```
 */
export type EndSystemClient = KyInstance;
/**
 * Options of one call: ky's `Options`.
 *
 * @example
 * ```ts
 * import type { EndSystemCallOptions } from '@connector-sdk/core/http';
 *
 * const options: EndSystemCallOptions = {
 *   searchParams: { fields: 'summary,status' },
 *   headers: { accept: 'application/json' },
 * };
 * ```
 */
export type EndSystemCallOptions = Options;
/**
 * Query parameters of a call: ky's `searchParams` option.
 *
 * @example
 * ```ts
 * import type { SearchParamsInput } from '@connector-sdk/core/http';
 *
 * const searchParams: SearchParamsInput = { project: 'ACME', limit: 50 };
 * ```
 */
export type SearchParamsInput = SearchParamsOption;
/**
 * One call of the client: `client.get`, `client.post`…
 *
 * @example
 * ```ts
 * import type { EndSystemCall, EndSystemClient } from '@connector-sdk/core/http';
 *
 * declare const acme: EndSystemClient;
 * const write: EndSystemCall = acme.put;
 * ```
 */
export type EndSystemCall = KyInstance['get'];
/**
 * The answer of a call: ky's `ResponsePromise`, a promise of the `Response` with `.json()` and the other shortcuts.
 *
 * @example
 * ```ts
 * import type {
 *   EndSystemClient,
 *   ResponsePromise,
 * } from '@connector-sdk/core/http';
 *
 * declare const acme: EndSystemClient;
 * const answer: ResponsePromise = acme.get('issues/42');
 * const { id } = await answer.json<{ id: string }>();
 * ```
 */
export type ResponsePromise<T = unknown> = KyResponsePromise<T>;
