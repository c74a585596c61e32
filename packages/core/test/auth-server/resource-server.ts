import { createServer, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SecretClient } from './test-clients.js';

/** Where the resource server checks tokens, and as which client. */
/**
 * Asks the authorization server about a token (RFC 7662) with `node:http`, not `fetch`: the conformance kit
 * counts every `fetch` made in its process (undici's `undici:request:create` channel) as the connector's, and
 * this server runs in the test's process.
 */
function introspect(endpoint: string, basic: string, token: string): Promise<unknown> {
  const body = new URLSearchParams({ token, token_type_hint: 'access_token' }).toString();
  return new Promise((resolve, reject) => {
    const call = request(
      endpoint,
      {
        method: 'POST',
        headers: {
          authorization: `Basic ${basic}`,
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': Buffer.byteLength(body),
        },
      },
      (answer) => {
        let text = '';
        answer.on('data', (chunk: Buffer) => (text += chunk.toString()));
        answer.on('end', () => {
          if (answer.statusCode !== 200)
            reject(new Error(`introspection answered ${answer.statusCode}`));
          else resolve(JSON.parse(text));
        });
        answer.on('error', reject);
      },
    );
    call.on('error', reject);
    call.end(body);
  });
}

export interface ResourceServerOptions {
  introspectionEndpoint: string;
  client: SecretClient;
}

/** What introspection (RFC 7662 §2.2) answers, as far as the resource server reads it. */
interface Introspection {
  active?: unknown;
  sub?: unknown;
  client_id?: unknown;
}

/**
 * Starts a resource server on `127.0.0.1` at a free port. `GET /me` answers 200 `{ "sub": … }` for a valid,
 * unexpired, unrevoked access token, and 401 with `WWW-Authenticate: Bearer error="invalid_token"` otherwise
 * (RFC 6750 §3.1; without any token, the challenge carries no error code). It asks the authorization server
 * on every call (introspection, RFC 7662), so a revoked or expired token is refused at once.
 *
 * @example
 * const api = await startResourceServer({ introspectionEndpoint, client: clients.resourceServer });
 * await fetch(api.meUrl, { headers: { authorization: `Bearer ${accessToken}` } });
 */
export async function startResourceServer({
  introspectionEndpoint,
  client,
}: ResourceServerOptions) {
  const statuses: number[] = [];
  const basic = Buffer.from(
    `${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`,
  ).toString('base64');

  async function subjectOf(token: string) {
    const result = (await introspect(introspectionEndpoint, basic, token)) as Introspection;
    if (result.active !== true) return undefined;
    // A client_credentials token has no end user: its subject is the client (RFC 7662 §2.2 `sub` is optional).
    const sub = result.sub ?? result.client_id;
    return typeof sub === 'string' ? sub : undefined;
  }

  function answer(
    response: ServerResponse,
    { status, body, challenge }: { status: number; body: object; challenge?: string },
  ) {
    statuses.push(status);
    response.writeHead(status, {
      'content-type': 'application/json',
      ...(challenge === undefined ? {} : { 'www-authenticate': challenge }),
    });
    response.end(JSON.stringify(body));
  }

  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url !== '/me') {
      answer(response, { status: 404, body: { error: 'not_found' } });
      return;
    }
    const match = /^Bearer ([\x21-\x7e]+)$/i.exec(request.headers.authorization ?? '');
    if (!match?.[1]) {
      answer(response, {
        status: 401,
        body: { error: 'unauthorized' },
        challenge: 'Bearer realm="resource"',
      });
      return;
    }
    subjectOf(match[1]).then(
      (sub) =>
        sub === undefined
          ? answer(response, {
              status: 401,
              body: { error: 'invalid_token' },
              challenge: 'Bearer error="invalid_token"',
            })
          : answer(response, { status: 200, body: { sub } }),
      () => answer(response, { status: 502, body: { error: 'introspection_failed' } }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    meUrl: `${url}/me`,
    /** Statuses answered so far, oldest first. */
    statuses: (): readonly number[] => statuses,
    /** Forgets earlier calls. */
    clear() {
      statuses.length = 0;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** A running test resource server. */
export type ResourceServer = Awaited<ReturnType<typeof startResourceServer>>;
