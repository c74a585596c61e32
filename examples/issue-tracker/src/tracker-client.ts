import {
  createEndSystemClient,
  type ErrorMappingOptions,
} from '@connector-sdk/core/http';
import type { Logger } from '@connector-sdk/core';

/** The tracker's error body: `{ "fault": { "id": "ISSUE_NOT_FOUND", "text": "…" } }`. */
interface TrackerFault {
  readonly fault?: { readonly id?: string; readonly text?: string };
}

/**
 * How the tracker's faults reach the platform: they keep their own id as the error code the platform sees; a
 * wrong login is a 401 `AUTHENTICATION_FAILED`.
 */
export const TRACKER_ERRORS: ErrorMappingOptions = {
  rules: [
    {
      status: 401,
      body: { fault: { id: 'BAD_CREDENTIALS' } },
      code: 'AUTHENTICATION_FAILED',
    },
  ],
  extract: (body) => ({
    code: (body as TrackerFault).fault?.id,
    message: (body as TrackerFault).fault?.text,
  }),
};

/** What a tracker call needs: where, as whom, and the platform request it serves. */
export interface TrackerCallContext {
  readonly url: string;
  readonly authorization?: string;
  readonly signal: AbortSignal;
  readonly log: Logger;
}

/**
 * A client for the tracker's API, its faults mapped by {@link TRACKER_ERRORS}. A 429 is not retried here: it goes back to the platform as a 403 with
 * `Retry-After`, so the platform waits instead of this request holding a connection open.
 */
export function trackerClient({
  url,
  authorization,
  signal,
  log,
}: TrackerCallContext) {
  return createEndSystemClient({
    baseUrl: `${url.replace(/\/+$/, '')}/api/`,
    headers: { Authorization: authorization },
    signal,
    log,
    retry: { statusCodes: [503] },
    errors: TRACKER_ERRORS,
  });
}

/** The session as the connector's later calls read it (see `session` in connector.ts). */
export interface TrackerSession {
  readonly Authorization: string;
  readonly 'X-Tracker-Url': string;
  readonly 'X-Tracker-Project'?: string | undefined;
}

/** What a tracker call made for one platform request needs: its session, its abort signal, its logger. */
export interface SessionCall {
  readonly session: TrackerSession;
  readonly signal: AbortSignal;
  readonly log: Logger;
}

/**
 * A client for the tracker, as the session of one platform request.
 *
 * @param call - the request's session, signal and logger
 * @returns the client
 */
export const trackerFor = ({ session, signal, log }: SessionCall) =>
  trackerClient({
    url: session['X-Tracker-Url'],
    authorization: session.Authorization,
    signal,
    log,
  });
