import type { RawQuery } from '../../contract/connector-request.js';
import { ValidationError } from '../../errors/errors.js';
import type { HandlerRuntime } from '../handler-runtime.js';
import { openSession } from './open-session.js';
import { queryParam } from '../request/query-param.js';
import { Refusal } from '../refusal.js';
import { CleanupContextImpl, type RequestScope } from '../request-scope.js';

/**
 * `POST {base}/cleanup/{sdkSessionId}?systemId=&cleanupGlobalCache=`: ends the verified session (only that
 * one: the path and query must name it), runs the connector's cleanup and empties the caches.
 *
 * @internal
 */
export async function serveCleanup(
  runtime: HandlerRuntime,
  state: RequestScope,
  input: { readonly sdkSessionId: string; readonly query: RawQuery },
): Promise<Record<string, never> | Refusal> {
  const { query } = input;
  const opened = openSession(runtime, state, {
    query,
    systemIdRequired: true,
    pathSessionId: input.sdkSessionId,
  });
  if (opened instanceof Refusal) return opened;
  const session = await opened;
  const flag = queryParam(query, 'cleanupGlobalCache', false);
  if (flag !== undefined && flag !== 'true' && flag !== 'false') {
    throw new ValidationError("The query parameter 'cleanupGlobalCache' must be true or false", {
      code: 'INVALID_PARAMETER',
    });
  }
  const cleanupGlobalCache = flag === 'true';
  runtime.sessionChecks?.forget(state.request.headers);
  let failed = false;
  let failure: unknown;
  try {
    await runtime.adapter.cleanup?.(
      new CleanupContextImpl(state, {
        session: session.values,
        sdkSessionId: session.sdkSessionId,
        systemId: session.systemId,
        cleanupGlobalCache,
      }) as never,
    );
  } catch (error) {
    failed = true;
    failure = error;
  }
  // The SDK empties the caches itself, even when the connector's cleanup failed, so that no author can
  // forget to and no session's data outlives it. The connector's own failure is the one answered.
  const clearing = Promise.all([
    state.sessionCache.clear(),
    ...(cleanupGlobalCache ? [state.systemCache.clear()] : []),
  ]);
  if (failed) {
    await clearing.catch(() => undefined);
    throw failure;
  }
  await clearing;
  return {};
}
