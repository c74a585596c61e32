/** The options a failed call was made with, as {@link HTTPError} reports them. */
export interface CallDescription {
  readonly method: string;
  readonly url: string;
}

/**
 * An end system's answer outside 2xx, thrown by the end-system client's calls (unless `throwHttpErrors: false`).
 * The platform's answer is attached to it (see `toConnectorError`); `response` stays readable for connector
 * code. The same shape and name as ky's `HTTPError`, which the client was built on before.
 *
 * @example
 * ```ts
 * try {
 *   await acme.get('rest/issues/1').json();
 * } catch (error) {
 *   if (error instanceof HTTPError && error.response.status === 404) return undefined;
 *   throw error;
 * }
 * ```
 */
export class HTTPError extends Error {
  override readonly name = 'HTTPError';
  /** The end system's answer: readable, its body already bounded. */
  readonly response: Response;
  /** The request that failed (its URL as sent). */
  readonly request: Request;
  /** What the call was. */
  readonly options: CallDescription;

  /**
   * @param response - the end system's answer
   * @param request - the request that got it
   */
  constructor(response: Response, request: Request) {
    const status = `${response.status} ${response.statusText}`.trim();
    super(`Request failed with status code ${status}: ${request.method} ${request.url}`);
    this.response = response;
    this.request = request;
    this.options = { method: request.method, url: request.url };
  }
}
