import type { KyInstance, ResponsePromise } from 'ky';
import { attachConnectorError } from '../errors/attached-error.js';
import type { ErrorCode } from '../errors/error-codes.js';
import { errorFor } from './map-end-system-error.js';
import { safeUrl } from './safe-url.js';

/** How a successful answer that is not JSON is answered, when connector code asked for JSON. */
export interface NotJsonRule {
  /**
   * The SDK code to answer with. A login or API URL that answers an HTML page with 200 is usually a wrong URL:
   * `'INVALID_CONFIGURATION'` says so to the user.
   *
   * @default 'END_SYSTEM_ERROR'
   */
  readonly code?: ErrorCode;
  /** The message instead of "The end system answered something that is not JSON". */
  readonly message?: string;
}

const NOT_JSON = 'The end system answered something that is not JSON';

/**
 * The failure `parseJson` throws. Not a connector error itself, so that the connector's `mapError` is asked
 * about it; the platform's answer is attached, and made precise once the response is at hand.
 */
export class NotJsonError extends Error {
  override readonly name: string = 'NotJsonError';
  constructor(
    readonly characters: number,
    rule: NotJsonRule | undefined,
  ) {
    super(NOT_JSON);
    // The answer when the response is not at hand: read with `json()` of a response awaited earlier.
    attachConnectorError(
      this,
      errorFor(rule?.code ?? 'END_SYSTEM_ERROR', rule?.message ?? NOT_JSON, {
        detail: `The answer of ${characters} characters is not JSON`,
        cause: this,
      }),
    );
  }
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head'] as const;

/**
 * Gives a successful answer that is not JSON, read with `.json()` of the call (`client.get(…).json()`), a
 * short detail — `GET https://… answered
 * 200 text/html, 5120 characters, not JSON` — and the code of `rule` (issue 21, item 3). The body itself is
 * never quoted: it may come from another service than the end system (issue 20, finding 3).
 *
 * @internal
 */
export function withNotJsonDetail(instance: KyInstance, rule: NotJsonRule | undefined): KyInstance {
  /** Makes `json` of `target` (the response promise, or the response) answer a non-JSON body precisely. */
  const patchJson = (
    target: { json: () => Promise<unknown> },
    response: () => Promise<Response>,
    method: string,
  ) => {
    const json = target.json.bind(target);
    target.json = async () => {
      try {
        return await json();
      } catch (error) {
        if (!(error instanceof NotJsonError)) throw error;
        const answered = await response();
        const type =
          answered.headers.get('content-type')?.split(';')[0]?.trim() || 'no content type';
        throw attachConnectorError(
          error,
          errorFor(rule?.code ?? 'END_SYSTEM_ERROR', rule?.message ?? error.message, {
            detail: `${method.toUpperCase()} ${safeUrl(answered.url)} answered ${answered.status} ${type}, ${error.characters} characters, not JSON`,
            cause: error,
          }),
        );
      }
    };
  };
  const decorate = (promise: ResponsePromise, method: string): ResponsePromise => {
    patchJson(promise as { json: () => Promise<unknown> }, () => promise, method);
    return promise;
  };
  const methodOf = (
    input: Parameters<KyInstance>[0],
    options: Parameters<KyInstance>[1] | undefined,
    fallback: string,
  ) => options?.method ?? (input instanceof Request ? input.method : fallback);
  const wrapped = ((input: Parameters<KyInstance>[0], options?: Parameters<KyInstance>[1]) =>
    decorate(instance(input, options), methodOf(input, options, 'get'))) as KyInstance;
  for (const method of METHODS) {
    (wrapped as unknown as Record<string, unknown>)[method] = (
      input: Parameters<KyInstance>[0],
      options?: Parameters<KyInstance>[1],
    ) => decorate(instance[method](input, options), method);
  }
  Object.assign(wrapped, {
    create: (options: Parameters<KyInstance['create']>[0]) =>
      withNotJsonDetail(instance.create(options), rule),
    extend: (options: Parameters<KyInstance['extend']>[0]) =>
      withNotJsonDetail(instance.extend(options), rule),
    stop: instance.stop,
    retry: instance.retry,
  });
  return wrapped;
}
