import type { KyInstance, ResponsePromise } from 'ky';
import { EndSystemError } from '../errors/errors.js';
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
  readonly code: ErrorCode;
  /** The message instead of "The end system answered something that is not JSON". */
  readonly message?: string;
}

/** The failure `parseJson` throws; made into the platform's answer once the response is at hand. */
export class NotJsonError extends EndSystemError {
  override readonly name: string = 'NotJsonError';
  constructor(readonly characters: number) {
    super('The end system answered something that is not JSON', {
      detail: `The answer of ${characters} characters is not JSON`,
    });
  }
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head'] as const;

/**
 * Gives a successful answer that is not JSON, read with `.json()`, a short detail — `GET https://… answered
 * 200 text/html, 5120 characters, not JSON` — and the code of `rule` (issue 21, item 3). The body itself is
 * never quoted: it may come from another service than the end system (issue 20, finding 3).
 *
 * @internal
 */
export function withNotJsonDetail(instance: KyInstance, rule: NotJsonRule | undefined): KyInstance {
  const decorate = (promise: ResponsePromise, method: string): ResponsePromise => {
    const json = promise.json.bind(promise);
    promise.json = (async () => {
      try {
        return await json();
      } catch (error) {
        if (!(error instanceof NotJsonError)) throw error;
        const response = await promise;
        const type =
          response.headers.get('content-type')?.split(';')[0]?.trim() || 'no content type';
        throw errorFor(rule?.code ?? 'END_SYSTEM_ERROR', rule?.message ?? error.message, {
          detail: `${method.toUpperCase()} ${safeUrl(response.url)} answered ${response.status} ${type}, ${error.characters} characters, not JSON`,
          cause: error,
        });
      }
    }) as ResponsePromise['json'];
    return promise;
  };
  const wrapped = ((input: Parameters<KyInstance>[0], options?: Parameters<KyInstance>[1]) =>
    decorate(instance(input, options), options?.method ?? 'get')) as KyInstance;
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
