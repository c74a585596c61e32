import type { RawQuery } from '../../contract/connector-request.js';
import { ValidationError } from '../../errors/errors.js';
import type { HandlerRuntime } from '../handler-runtime.js';
import { queryParam } from '../request/query-param.js';
import { readSession, type VerifiedSession } from './read-session.js';
import { Refusal } from '../refusal.js';
import type { RequestScope } from '../request-scope.js';

/**
 * What every later call and cleanup does first: verify the session (401 when it does not), refuse a `systemId`
 * in the query that is not the session's (400), scope the request to the verified ids, take a place of the
 * tenant's share of the calls in flight (403 with the wait header when it has none left), then count the call.
 * Nothing a caller chose reaches a cache, a store or the rate limit (ARCHITECTURE.md, D2).
 *
 * Verifying is synchronous: a refused call makes no promise to reject, and a call without a session (the
 * commonest error) is a {@link Refusal} returned, not thrown; either cost more than the rest of its answer
 * (ARCHITECTURE.md, D20). A promise only when the call must still be counted.
 *
 * @internal
 */
export function openSession(
  runtime: HandlerRuntime,
  state: RequestScope,
  ids: {
    readonly query: RawQuery;
    /** Cleanup's: the query must name the system. */
    readonly systemIdRequired?: boolean;
    /** Cleanup's path id, which must be the session's. */
    readonly pathSessionId?: string;
  },
): VerifiedSession | Promise<VerifiedSession> | Refusal {
  const session = readSession(runtime.sessions, state.request.headers, state.redactor);
  if (session instanceof Refusal) return session;
  const systemId = queryParam(ids.query, 'systemId', ids.systemIdRequired === true);
  if (systemId !== undefined && systemId !== session.systemId)
    throw mismatch("The query parameter 'systemId' is not the system of this call's session");
  if (ids.pathSessionId !== undefined && ids.pathSessionId !== session.sdkSessionId)
    throw mismatch("The path's session id is not the id of this call's session");
  state.tenant = session;
  state.share = runtime.tenantShares.enter(session.tenant);
  if (!runtime.rateLimit) return session;
  return runtime
    .rateLimit({
      operation: state.operation,
      systemId: session.systemId,
      sdkSessionId: session.sdkSessionId,
      configuration: session.configuration,
    })
    .then(() => session);
}

/** A call whose path or query names another session than the one it carries. */
export function mismatch(message: string): ValidationError {
  return new ValidationError(message, { code: 'SESSION_MISMATCH' });
}
