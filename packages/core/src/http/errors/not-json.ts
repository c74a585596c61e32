import { attachConnectorError } from '../../errors/attached-error.js';
import { callOfOptions, type Answer } from '../call-state.js';
import { clientOf } from '../client-state.js';
import { errorFor } from './map-end-system-error.js';
import type { NotJsonRule } from './not-json-rule.js';
import { safeUrl } from '../transport/safe-url.js';

const NOT_JSON = 'The end system answered something that is not JSON';

/**
 * A successful answer that is not JSON, read with `.json()`. Not a connector error itself, so that the
 * connector's `mapError` is asked about it; the platform's answer is attached to it: a short detail — `GET
 * https://… answered 200 text/html, 5120 characters, not JSON` — and the code of the client's `notJson` rule, so
 * that a login URL answering an HTML page can be a configuration error rather than a 502. The body itself is
 * never quoted: it may come from another service than the end system (ARCHITECTURE.md, D10).
 */
export class NotJsonError extends Error {
  override readonly name: string = 'NotJsonError';
  constructor(
    answer: Answer | undefined,
    readonly characters: number,
    rule: NotJsonRule | undefined,
  ) {
    super(NOT_JSON);
    let call = 'The answer';
    const response = answer?.response;
    if (answer && response) {
      const type = response.headers.get('content-type')?.split(';')[0]?.trim() || 'no content type';
      call = `${answer.method} ${safeUrl(response.url)} answered ${response.status} ${type}`;
    }
    attachConnectorError(
      this,
      errorFor(rule?.code ?? 'END_SYSTEM_ERROR', rule?.message ?? NOT_JSON, {
        detail: `${call}, ${characters} characters, not JSON`,
        cause: this,
      }),
    );
  }
}

/**
 * ky's `parseJson` of every end-system client: `JSON.parse`, and for text that is not JSON a
 * {@link NotJsonError} naming the call, never quoting the body. ky calls it as a method of the call's options
 * (`options.parseJson(text)`), which is how it finds the call's answer and `notJson` rule.
 *
 * @internal
 */
export function parseJson(
  this: { readonly context?: Readonly<Record<string | symbol, unknown>> } | undefined,
  text: string,
): unknown {
  // ky has read the answer whole: its attempt's timer has nothing left to bound.
  const call = callOfOptions(this);
  call?.bodyRead(call.response);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new NotJsonError(call, text.length, clientOf(this)?.errors.notJson);
  }
}
