import { ParameterListSchema, type ParameterEntry } from '@connector-sdk/core';

/** Which session an initialize makes: the platform's ids. */
export interface SessionIds {
  /** @default 's' */
  readonly sdkSessionId?: string;
  /** @default 'sys' */
  readonly systemId?: string;
}

/**
 * Posts an initialize to a connector served at `origin`, as the platform does.
 *
 * @param entries - The configuration, or a body of the test's own.
 */
export function postInitialize(
  origin: string,
  entries: readonly ParameterEntry[] | string,
  { sdkSessionId = 's', systemId = 'sys' }: SessionIds = {},
): Promise<Response> {
  return fetch(`${origin}/sdk/api/1.0/initialize/${sdkSessionId}?systemId=${systemId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof entries === 'string' ? entries : JSON.stringify(entries),
  });
}

/** The session an initialize answered, as the headers of the platform's later calls. */
export async function sessionOf(response: Response): Promise<Record<string, string>> {
  const entries = ParameterListSchema.parse(await response.json());
  return Object.fromEntries(entries.map((entry) => [entry.key, entry.value]));
}
