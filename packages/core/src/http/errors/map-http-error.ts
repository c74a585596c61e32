import type { BeforeErrorHook } from 'ky';
import { attachConnectorError } from '../../errors/attached-error.js';
import { clientOf } from '../client-state.js';
import { mapEndSystemError } from './map-end-system-error.js';
import { readErrorBody } from './read-error-body.js';
import { safeUrl } from '../transport/safe-url.js';
import { bodyRead } from '../transport/streamed-body.js';

/** Statuses whose responses must not have a body. */
const NULL_BODY = new Set([204, 205, 304]);

/**
 * ky's `beforeError` hook of every end-system client: reads the failed answer once (within bounds), keeps a
 * readable copy on ky's `HTTPError`, takes the raw URL (query credentials included) out of its message, and
 * attaches the platform's answer: the contract error of the mapping table and the client's `errors` rules.
 *
 * @internal
 */
export const mapHttpError: BeforeErrorHook = async (error) => {
  const client = clientOf(error.options);
  if (client === undefined) return error;
  const { response, request } = error;
  const body = await readErrorBody(response, client.secrets);
  bodyRead(response);
  // A `Response` can only be made with a status from 200 to 599; an end system answering 600 or 999 gets
  // its own (already read) response passed on instead of a RangeError that became a 500 (ARCHITECTURE.md, D11).
  const replayable = response.status >= 200 && response.status <= 599;
  const replay = () =>
    replayable
      ? new Response(NULL_BODY.has(response.status) || body.text === '' ? null : body.text, {
          status: response.status,
          statusText: response.statusText,
          headers: response.headers,
        })
      : response;
  Object.defineProperty(error, 'response', {
    value: replay(),
    configurable: true,
    writable: true,
  });
  const url = safeUrl(request.url);
  error.message = error.message.replaceAll(request.url, url);
  if (error.stack) error.stack = error.stack.replaceAll(request.url, url);
  return attachConnectorError(
    error,
    mapEndSystemError(replay(), body, {
      method: request.method,
      url,
      options: client.errors,
      cause: error,
    }),
  );
};
