import type { Logger } from '../logging/logger.js';
import type { Cache } from '../store/cache.js';

/**
 * What {@link SessionCheck.check} receives: the verified session and the request's services, all own properties.
 *
 * @example
 * ```ts
 * import type { SessionCheckContext } from '@connector-sdk/core';
 *
 * type Session = { 'X-Acme-Url': string; Authorization: string };
 * type Context = SessionCheckContext<Session>;
 * const stillValid = async ({ session, signal }: Context) => {
 *   const response = await fetch(`${session['X-Acme-Url']}/api/me`, {
 *     headers: { authorization: session.Authorization },
 *     signal,
 *   });
 *   return response.status !== 401;
 * };
 * ```
 */
export interface SessionCheckContext<TSession> {
  /** The session read from the request headers, after its signature verified. */
  readonly session: TSession;
  /** The platform's id for the session: the verified session's. */
  readonly sdkSessionId: string;
  /** The platform's id for the configured end system: the verified session's. */
  readonly systemId: string;
  /** The name of the operation that runs once the check passes. */
  readonly operation: string;
  /** Fires when the platform disconnects; pass it on to end-system calls. */
  readonly signal: AbortSignal;
  /** A logger that adds the request's ids and redacts its secrets. */
  readonly log: Logger;
  /**
   * Marks a value learned during this call as secret: from now on it is redacted from this request's error body
   * and log lines.
   *
   * @param value - the secret
   */
  addSecret(value: string): void;
  /** This session's cache. */
  readonly sessionCache: Cache;
  /** This end system's cache (as configured). */
  readonly systemCache: Cache;
}

/**
 * A check of the session against the end system, run before each later operation: for end systems that end a
 * session without ever answering 401 (CouchDB serves an expired cookie session as anonymous, with 200), so that
 * the client's 401 rule never fires.
 *
 * @example
 * ```ts
 * import type { SessionCheck } from '@connector-sdk/core';
 * import { createEndSystemClient } from '@connector-sdk/core/http';
 *
 * type Session = { 'X-Couch-Url': string; Cookie: string };
 * const checkSession: SessionCheck<Session> = {
 *   check: async ({ session, signal, log }) => {
 *     const couch = createEndSystemClient({
 *       baseUrl: session['X-Couch-Url'],
 *       headers: { Cookie: session.Cookie },
 *       signal,
 *       log,
 *     });
 *     type Answer = { userCtx: { name: string | null } };
 *     const answer = await couch.get('_session').json<Answer>();
 *     return answer.userCtx.name !== null;
 *   },
 *   memoMs: 5_000,
 * };
 * ```
 */
export interface SessionCheck<TSession> {
  /**
   * Asks the end system whether the session still holds. `false` answers the call `401 SESSION_EXPIRED` before
   * the operation runs, and the platform initializes again; an error thrown is answered as an operation's
   * would be (an end-system 401 is `SESSION_EXPIRED` too). Anything but a boolean is a `500 INTERNAL_ERROR`.
   *
   * @param context - the verified session, its ids, the operation's name and the request's services
   * @returns whether the session still holds
   */
  check(context: SessionCheckContext<TSession>): boolean | Promise<boolean>;
  /**
   * How long a session that passed is taken as valid without asking again, in milliseconds: per session (keyed
   * by its verified signature, never by anything a caller chose), in this process only, at most 10,000
   * sessions. A session whose operation is answered 401, or that is cleaned up, is asked again. A memo is a
   * window in which an ended session is served as anonymous: keep it short.
   *
   * @default 0 (every call is checked)
   */
  readonly memoMs?: number;
}

/**
 * Throws a `TypeError` for a `checkSession` that cannot work, when the connector is defined.
 *
 * @internal
 */
export function assertSessionCheck(check: SessionCheck<unknown> | undefined): void {
  if (check === undefined) return;
  if (typeof check?.check !== 'function')
    throw new TypeError('checkSession must be an object with a check(context) function');
  const memoMs = check.memoMs ?? 0;
  if (!(typeof memoMs === 'number' && memoMs >= 0 && memoMs <= Number.MAX_SAFE_INTEGER))
    throw new TypeError('checkSession.memoMs must be a number of milliseconds, 0 or more');
}
