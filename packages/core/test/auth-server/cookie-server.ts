import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Starts a cookie-session server on `127.0.0.1` at a free port, the way CouchDB's `/_session` works:
 * `POST /_session` with the form (or JSON) `name` and `password` answers `{ ok: true }` and sets `AuthSession`;
 * `GET /me` answers the user's name for a live cookie and 401 otherwise; with `renewNext()`, the next `GET /me`
 * also sets a new `AuthSession` (CouchDB does once a cookie is past part of its lifetime) and the old one stops
 * working soon after (`expireOld()`); `DELETE /_session` ends the session.
 */
export async function startCookieServer(user = { name: 'ada', password: 'couch-Pa55-word' }) {
  const live = new Map<string, string>();
  const logins: { status: number }[] = [];
  const seenCookies: (string | undefined)[] = [];
  let renewNext = false;
  const retired: string[] = [];

  const read = (request: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => resolve(body));
    });
  const answer = (response: ServerResponse, status: number, body: object, cookie?: string) => {
    response.writeHead(status, {
      'content-type': 'application/json',
      ...(cookie === undefined
        ? {}
        : { 'set-cookie': `AuthSession=${cookie}; Version=1; Path=/; HttpOnly` }),
    });
    response.end(JSON.stringify(body));
  };
  const newSession = (name: string) => {
    const cookie = randomBytes(18).toString('base64url');
    live.set(cookie, name);
    return cookie;
  };

  const server = createServer((request, response) => {
    void (async () => {
      const body = await read(request);
      const cookie = /AuthSession=([^;]+)/.exec(request.headers.cookie ?? '')?.[1];
      if (request.url === '/_session' && request.method === 'POST') {
        const fields = /json/.test(request.headers['content-type'] ?? '')
          ? (JSON.parse(body) as Record<string, string>)
          : Object.fromEntries(new URLSearchParams(body));
        const ok = fields.name === user.name && fields.password === user.password;
        logins.push({ status: ok ? 200 : 401 });
        if (!ok)
          return answer(response, 401, {
            error: 'unauthorized',
            reason: 'Name or password is incorrect.',
          });
        return answer(response, 200, { ok: true, name: user.name }, newSession(user.name));
      }
      if (request.url === '/_session' && request.method === 'DELETE') {
        if (cookie !== undefined) live.delete(cookie);
        return answer(response, 200, { ok: true }, '');
      }
      if (request.url === '/me' && request.method === 'GET') {
        seenCookies.push(cookie);
        const name = cookie === undefined ? undefined : live.get(cookie);
        if (name === undefined) return answer(response, 401, { error: 'unauthorized' });
        if (renewNext && cookie !== undefined) {
          renewNext = false;
          retired.push(cookie);
          return answer(response, 200, { name }, newSession(name));
        }
        return answer(response, 200, { name });
      }
      answer(response, 404, { error: 'not_found' });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    user,
    /** Logins tried, oldest first. */
    logins: () => logins,
    /** The `AuthSession` each `GET /me` sent, oldest first. */
    seenCookies: () => seenCookies,
    /** Every cookie the server ever set and still accepts. */
    liveCookies: () => [...live.keys()],
    /** The next `GET /me` with a live cookie answers a new one too. */
    renewNext() {
      renewNext = true;
    },
    /** Cookies replaced by a renewal stop working. */
    expireOld() {
      for (const cookie of retired) live.delete(cookie);
    },
    /** Every session ends. */
    expireAll() {
      live.clear();
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
