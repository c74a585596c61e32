import { request } from 'node:http';
import { ParameterListSchema, type ParameterEntry } from '@connector-sdk/core';

/** What a call on a new connection came to: the status, or the error code that ended it, and the body. */
export interface Outcome {
  readonly status: number | string;
  readonly body: string;
}

export interface FreshCallInit {
  readonly method?: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  /** The client's own address, as the platform calls from hosts of its own. */
  readonly localAddress?: string;
  /**
   * How long the connection may stay silent before the call is given up (0: never). No machine is 10 s slow,
   * while a place a flood held until the server's head timeout (30 s) freed it would take that long.
   *
   * @default 10_000
   */
  readonly patienceMs?: number;
}

/** One request on a new connection, through Node's client so that nothing is checked or normalised. */
export function freshCall(url: string, init: FreshCallInit = {}): Promise<Outcome> {
  return new Promise((resolve) => {
    const patienceMs = init.patienceMs ?? 10_000;
    const req = request(url, {
      method: init.method ?? 'GET',
      headers: init.headers,
      agent: false,
      timeout: patienceMs,
      ...(init.localAddress === undefined ? {} : { localAddress: init.localAddress }),
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', () => resolve({ status: 'cut off', body }));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${patienceMs} ms`)));
    req.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ status: error.code ?? error.message, body: '' }),
    );
    req.end(init.body);
  });
}

/** Initializes as the platform does, on a new connection. */
export function freshInitialize(
  base: string,
  entries: readonly ParameterEntry[],
  { sdkSessionId = 's-1', systemId = 'sys-1', localAddress = undefined as string | undefined } = {},
): Promise<Outcome> {
  return freshCall(`${base}/initialize/${sdkSessionId}?systemId=${systemId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(entries),
    ...(localAddress === undefined ? {} : { localAddress }),
  });
}

/** The session headers an initialize answered. */
export function sessionOf(initialize: Outcome): Record<string, string> {
  const session = ParameterListSchema.parse(JSON.parse(initialize.body));
  return Object.fromEntries(session.map((entry) => [entry.key, entry.value]));
}

/** Discover, initialize, then `whoami` with the session initialize answered, each on a new connection. */
export async function platformRound(
  base: string,
  entries: readonly ParameterEntry[],
): Promise<{ discover: Outcome; initialize: Outcome; later: Outcome }> {
  const discover = await freshCall(`${base}/discover`);
  const initialize = await freshInitialize(base, entries);
  const later =
    initialize.status === 200
      ? await freshCall(`${base}/whoami`, { headers: sessionOf(initialize) })
      : { status: 'no session', body: '' };
  return { discover, initialize, later };
}
