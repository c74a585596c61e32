import { attachConnectorError } from '../errors/attached-error.js';
import { errorFor } from './map-end-system-error.js';
import type { NotJsonRule } from './not-json-rule.js';
import { safeUrl } from './safe-url.js';

const NOT_JSON = 'The end system answered something that is not JSON';

/**
 * A successful answer that is not JSON, read with `.json()`. Not a connector error itself, so that the
 * connector's `mapError` is asked about it; the platform's answer is attached to it: a short detail — `GET
 * https://… answered 200 text/html, 5120 characters, not JSON` — and the code of the client's `notJson` rule
 * (issue 21, item 3). The body itself is never quoted: it may come from another service than the end system
 * (issue 20, finding 3).
 */
export class NotJsonError extends Error {
  override readonly name: string = 'NotJsonError';
  constructor(
    response: Response,
    method: string,
    readonly characters: number,
    rule: NotJsonRule | undefined,
  ) {
    super(NOT_JSON);
    const type = response.headers.get('content-type')?.split(';')[0]?.trim() || 'no content type';
    attachConnectorError(
      this,
      errorFor(rule?.code ?? 'END_SYSTEM_ERROR', rule?.message ?? NOT_JSON, {
        detail: `${method.toUpperCase()} ${safeUrl(response.url)} answered ${response.status} ${type}, ${characters} characters, not JSON`,
        cause: this,
      }),
    );
  }
}

/**
 * Parses a successful answer's text as JSON: an empty answer (or a 204) is `''`; text that is not
 * JSON is a {@link NotJsonError} naming the call, never quoting the body.
 *
 * @internal
 */
export async function readJson(
  response: Response,
  method: string,
  rule: NotJsonRule | undefined,
): Promise<unknown> {
  if (response.status === 204) return '';
  const text = await response.text();
  if (text === '') return '';
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new NotJsonError(response, method, text.length, rule);
  }
}
