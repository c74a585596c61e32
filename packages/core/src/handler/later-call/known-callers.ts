import type { ConnectorHandler } from '../../contract/connector-request.js';
import { SDK_SESSION_HEADER_KEYS } from '../../security/header-safety.js';
import type { HandlerRuntime } from '../handler-runtime.js';

// Who counts as a known caller when a binding's places for requests in progress run short (ARCHITECTURE.md,
// D27): a request whose session this handler sealed, or one from an `initializeFrom` network. Strangers may
// fill every place but the few kept for such callers, so the platform's own calls go on while a flood holds
// the rest. The check runs only when those kept places are all that is left: the ordinary request pays nothing.

/** The request headers a binding has, as Node gives them: a repeated header may be an array. */
type RawHeaders = Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * Whether a request comes from a caller this handler knows: its session verifies (the same seal `readSession`
 * checks, from the same cache of verified sessions), or its address is in `initializeFrom`. An expired session
 * still counts: it is answered 401 at once, holding its place for no time.
 *
 * @internal
 */
export type KnownCaller = (headers: RawHeaders, remoteAddress: string | undefined) => boolean;

const { mac: MAC, systemId: SYSTEM, sdkSessionId: SESSION } = SDK_SESSION_HEADER_KEYS;

/** Each handler's check, for the bindings that keep places; weak, so a handler dropped takes its check along. */
const checks = new WeakMap<ConnectorHandler, KnownCaller>();

function decodedId(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

/** Makes and registers the check of one handler. @internal */
export function registerKnownCallers(handle: ConnectorHandler, runtime: HandlerRuntime): void {
  const { sessions, initializeAccess } = runtime;
  checks.set(handle, (headers, remoteAddress) => {
    if (initializeAccess?.listed(remoteAddress) === true) return true;
    const token = headers[MAC];
    const systemId = decodedId(headers[SYSTEM]);
    const sdkSessionId = decodedId(headers[SESSION]);
    if (typeof token !== 'string' || systemId === undefined || sdkSessionId === undefined)
      return false;
    return sessions.sealer.unseal({ token, systemId, sdkSessionId }, (name) =>
      typeof headers[name] === 'string' ? headers[name] : undefined,
    ).ok;
  });
}

/**
 * The known-caller check of a handler made by `createHandler`, for a binding's admission; `undefined` for any
 * other function.
 *
 * @internal
 */
export const knownCallers = (handle: ConnectorHandler): KnownCaller | undefined =>
  checks.get(handle);
