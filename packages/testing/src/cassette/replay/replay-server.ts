import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { cassetteBody, readCassetteFile, type CassetteRequest } from '../cassette-file.js';
import { CassetteReplayer } from './cassette-replayer.js';
import type { CassetteMatcher } from './replay-match.js';
import type { Cassette } from '../start-cassette.js';

// A cassette replayed over HTTP, for a connector running in another process (the CLI's `conformance --replay`):
// the end system's recorded answers served on 127.0.0.1, where the configuration's end-system URL is pointed.
// The connector must be allowed to reach loopback, as a connector run for development is.

/** A cassette served over HTTP: replayed, or recorded through a proxy. @internal */
export interface CassetteServer extends Cassette {
  /** Its origin, such as `http://127.0.0.1:41234`. */
  readonly url: string;
  /** The origins the recording called: configuration values that start with one point here instead. */
  readonly origins: readonly string[];
  /**
   * Secrets the connector's sessions hold, from initialize's answers (the proxy cannot see the connector's
   * requests' secrets as core's tap does): scrubbed from a recording, masked in a replay's messages.
   */
  learn(values: Iterable<string>): void;
}

async function requestOf(message: IncomingMessage, origin: string): Promise<CassetteRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of message) chunks.push(chunk as Buffer);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(message.headers))
    if (value !== undefined && name !== 'host')
      headers[name] = Array.isArray(value) ? value.join(', ') : value;
  const body = cassetteBody(Buffer.concat(chunks), message.headers['content-type'] ?? null);
  return {
    method: message.method ?? 'GET',
    url: `${origin}${message.url ?? '/'}`,
    headers,
    ...(body && { body }),
  };
}

/**
 * Serves a cassette's answers on 127.0.0.1, for a connector running in another process (the CLI's
 * `--replay`), which the tap cannot reach: each request is answered as `startCassette` replays,
 * a request no recording matches with 500 and the closest recording (kept in `takeMismatches()`).
 *
 * @param path - the cassette file
 * @param options - the matcher, and secrets to mask in a mismatch's message
 * @returns the server, as a cassette with its URL
 * @throws Error when the file does not exist or is not a cassette
 * @internal
 */
export async function startReplayServer(
  path: string,
  options: { readonly match?: CassetteMatcher; readonly secrets?: readonly string[] } = {},
): Promise<CassetteServer> {
  const file = resolve(path);
  const cassette = await readCassetteFile(file);
  if (cassette === undefined) throw new Error(`No cassette at ${file}`);
  // Every recorded origin points here: a request to this server stands for one to the recording's origin.
  const replayer = new CassetteReplayer(cassette, file, {
    match: options.match,
    servedAt: () => url,
  });
  const secrets = [...(options.secrets ?? [])];
  const origins = new Set<string>();
  for (const exchanges of Object.values(cassette.tests))
    for (const { request } of exchanges) {
      const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(request.url)?.[0];
      if (origin) origins.add(origin);
    }
  let url = '';
  const server = createServer((message, reply) => {
    void requestOf(message, url).then(async (sent) => {
      let response: Response;
      try {
        response = replayer.answer(sent, secrets);
      } catch (error) {
        response = Response.json(
          { error: { code: 'CASSETTE_MISMATCH', message: (error as Error).message } },
          { status: 500 },
        );
      }
      const headers: Record<string, string | string[]> = {};
      for (const [name, value] of response.headers) headers[name] = value;
      const cookies = response.headers.getSetCookie();
      if (cookies.length > 0) headers['set-cookie'] = cookies;
      reply.writeHead(response.status, headers).end(Buffer.from(await response.arrayBuffer()));
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let taken = 0;
  return {
    mode: 'replay',
    path: file,
    url,
    origins: [...origins],
    section: (name) => replayer.section(name),
    learn: (values) => secrets.push(...values),
    takeMismatches: () => replayer.mismatches.slice(taken, (taken = replayer.mismatches.length)),
    stop: () =>
      new Promise((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}
