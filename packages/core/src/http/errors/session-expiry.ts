import type { AfterResponseHook } from 'ky';
import { clientOf } from '../client-state.js';

/**
 * ky's `afterResponse` hook of a client made with `sessionExpired`: a 2xx JSON answer that reports an expired
 * session becomes a 401, which ky throws as an `HTTPError` and the mapping answers `SESSION_EXPIRED`. Only such
 * clients have it: ky hands every `afterResponse` hook a clone of the answer, whose body is then read twice.
 *
 * @internal
 */
export const detectExpiry: AfterResponseHook = async (_request, options, response) => {
  const client = clientOf(options);
  if (
    !client?.sessionExpired ||
    !response.ok ||
    !/json/i.test(response.headers.get('content-type') ?? '')
  )
    return;
  const body = (await response.json().catch(() => undefined)) as unknown;
  let expired = false;
  try {
    expired = client.sessionExpired(body, response);
  } catch (error) {
    client.log.warn({ err: error }, 'sessionExpired threw; the answer is taken as a success');
  }
  if (!expired) return;
  return new Response(JSON.stringify(body), {
    status: 401,
    statusText: 'Session expired',
    headers: response.headers,
  });
};
