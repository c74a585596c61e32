import type { ParameterEntry } from '../../contract/schemas.js';
import { traceLogin } from '../../diagnostics/trace-login.js';
import { isSecret } from '../../security/secret.js';
import { configurationIdentity } from './configuration-identity.js';
import { pendingCache, type PendingCache } from '../../store/cache.js';
import { sealingVault, withVault } from '../../store/session-vault.js';
import type { HandlerRuntime, SharedLogin } from '../handler-runtime.js';
import type { Tenant } from '../context-caches.js';
import { buildInitializeAnswer, readInitializeBody } from './initialize.js';
import { queryParam } from '../request/query-param.js';
import { readJsonBody } from '../request/read-json-body.js';
import { refusedLogin } from './refused-login.js';
import { InitializeContextImpl, type RequestScope } from '../request-scope.js';
import { checkId } from '../request/session-ids.js';
import { initializeFlightKey } from './single-flight.js';
import type { RawQuery } from '../../contract/connector-request.js';

/**
 * `POST {base}/initialize/{sdkSessionId}?systemId=`: checks the ids and the body, counts the call, lets the
 * connector log in (once per flight when logins are shared) and answers the session, signed.
 *
 * @internal
 */
export async function serveInitialize(
  runtime: HandlerRuntime,
  state: RequestScope,
  input: { readonly sdkSessionId: string; readonly query: RawQuery },
): Promise<ParameterEntry[]> {
  const { compiled, adapter } = runtime;
  const { sealer } = runtime.sessions;
  const { request } = state;
  // The ids first: nothing runs for a session that could never be answered (ARCHITECTURE.md, D3).
  const sdkSessionId = checkId(input.sdkSessionId, "The path's session id");
  const systemId = checkId(
    queryParam(input.query, 'systemId', true),
    "The query parameter 'systemId'",
  );
  const access = runtime.initializeAccess;
  access?.checkSource(request.remoteAddress);
  const raw = await readJsonBody(request);
  const body = readInitializeBody(
    access ? access.takeKey(raw, state.redactor) : raw,
    compiled,
    state.redactor,
  );
  // Before any connector code: a URL that names the connector's own network is never logged in to.
  runtime.configUrls?.judge(body.config, state.log);
  const configuration = sealer.fingerprint(configurationIdentity(compiled, body));
  const tenant = new InitializeTenant(systemId, sdkSessionId, configuration);
  state.tenant = tenant;
  // Counted once the call is well-formed, right before connector code reaches the end system; keyed by the
  // configuration too, so a stranger's initializes never count against a tenant's.
  if (runtime.rateLimit) await runtime.rateLimit({ operation: 'initialize', ...tenant });

  const login = (signal?: AbortSignal): Promise<SharedLogin> => {
    const sessionWrites = pendingCache(() => state.sessionCache);
    // Async, so that a throw before the first await is answered as a rejection is.
    const run = () =>
      (async () =>
        adapter.initialize(
          new InitializeContextImpl(state, {
            config: body.config,
            entries: body.entries,
            sdkSessionId,
            systemId,
            suppressNotification: body.suppressNotification,
            signal,
            // Sealing only: there is no session to lock in until initialize has answered.
            sessionCache: withVault(sessionWrites.cache, sealingVault(runtime.keys)),
          }) as never,
        ))().then(undefined, (error: unknown) => {
        throw refusedLogin(error);
      });
    return traceLogin(run, {
      connector: compiled.name,
      systemId,
      redactor: state.redactor,
      scope: state,
    }).then((result: unknown) => new LoggedIn(result, sdkSessionId, sessionWrites));
  };

  let shared: SharedLogin;
  if (runtime.initializeFlights) {
    shared = await runtime.initializeFlights.run(
      initializeFlightKey({ systemId, ...body }),
      state.signal,
      login,
    );
    // A session that names another caller's session id is not this caller's: log in on its own
    // (ARCHITECTURE.md, D14). So is one whose cached state names it.
    if (
      shared.sdkSessionId !== sdkSessionId &&
      (mentions(shared.result, shared.sdkSessionId) ||
        shared.sessionWrites.texts().some((text) => names(text, shared.sdkSessionId)))
    )
      shared = await login();
  } else {
    shared = await login();
  }
  const answer = buildInitializeAnswer(shared.result, compiled, {
    ids: tenant,
    sealer,
    redactor: state.redactor,
    maxHeaderBytes: runtime.maxHeaderBytes,
    input: body,
  });
  // The session exists once it can be answered: what initialize cached for it is written now, into this
  // caller's own session (a shared login's writes go to every session it serves).
  if (!shared.sessionWrites.isEmpty()) await shared.sessionWrites.commit(state.sessionCache);
  return answer;
}

/** Whether any value initialize returned contains the id, as it is or percent-encoded. */
function mentions(result: unknown, id: string): boolean {
  const values: unknown[] = Array.isArray(result)
    ? result.map((entry: unknown) =>
        typeof entry === 'object' && entry !== null ? (entry as { value?: unknown }).value : entry,
      )
    : typeof result === 'object' && result !== null
      ? Object.values(result)
      : [];
  return values.some((value) => {
    const text = isSecret(value)
      ? value.reveal()
      : typeof value === 'string'
        ? value
        : String(value);
    return names(text, id);
  });
}

/** Whether a text contains the id, as it is or percent-encoded. */
function names(text: string, id: string): boolean {
  return text.includes(id) || text.includes(encodeURIComponent(id));
}

// What an initialize keeps for its whole run is made with `new`, not as object literals (see `Redactor`).

/** The ids an initialize's caches and rate limit are keyed by. */
class InitializeTenant implements Tenant {
  constructor(
    readonly systemId: string,
    readonly sdkSessionId: string,
    readonly configuration: string,
  ) {}
}

/** A login's outcome, as shared with the initializes of its flight. */
class LoggedIn implements SharedLogin {
  constructor(
    readonly result: unknown,
    readonly sdkSessionId: string,
    readonly sessionWrites: PendingCache,
  ) {}
}
