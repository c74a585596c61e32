import type { ConnectorHandler, ParameterEntry } from '../src/index.js';

/** What {@link initializeSession} sends. */
export interface InitializeSessionOptions {
  readonly entries?: readonly ParameterEntry[];
  readonly sdkSessionId?: string;
  readonly systemId?: string;
  readonly base?: string;
}

/**
 * Initializes through the handler, as the platform does, and returns the session it answered as request
 * headers (names lower-cased): the only way a later call gets a session the handler verifies.
 */
export async function initializeSession(
  handle: ConnectorHandler,
  options: InitializeSessionOptions = {},
): Promise<Record<string, string>> {
  const response = await handle({
    method: 'POST',
    path: `${options.base ?? '/sdk/api/1.0'}/initialize/${encodeURIComponent(options.sdkSessionId ?? 's-1')}`,
    query: { systemId: options.systemId ?? 'sys-1' },
    headers: {},
    body: options.entries ?? [],
  });
  if (response.status !== 200)
    throw new Error(`initialize answered ${response.status}: ${response.body}`);
  const entries = JSON.parse(response.body) as ParameterEntry[];
  return Object.fromEntries(entries.map((entry) => [entry.key.toLowerCase(), entry.value]));
}

/**
 * The handler as the platform calls it after one initialize: every later call carries that session's headers
 * (under any headers the call brings itself). Initialize and discover pass through untouched.
 */
export function withSession(
  handle: ConnectorHandler,
  options: InitializeSessionOptions = {},
): ConnectorHandler {
  let session: Promise<Record<string, string>> | undefined;
  return async (request) => {
    if (/\/(initialize\/[^/]*|discover)\/?$/.test(request.path)) return handle(request);
    session ??= initializeSession(handle, options);
    return handle({ ...request, headers: { ...(await session), ...request.headers } });
  };
}
