// A small fake of the notes API, for tests and `npm run dev`: a real HTTP server on 127.0.0.1 that speaks the
// API the connector calls. When you write a connector for your own end system, change this file to answer like
// it (its login, its error bodies, one or two of its resources): tests then run without an account, and you can
// make it fail in the ways your end system fails.
import { randomBytes } from 'node:crypto';
import {
  createServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** A note kept by the fake. */
export interface Note {
  readonly id: string;
  readonly text: string;
  readonly author: string;
}

/** The running fake. */
export interface FakeNotesApi {
  /** Its base URL, such as `http://127.0.0.1:41234`: what a user would type as the connector's `url`. */
  readonly url: string;
  /** How many tokens are live (issued, not logged out, not expired). */
  readonly liveTokens: number;
  /** Expires every token, as the real API does after a while. */
  expireTokens(): void;
  /** Stops the server. */
  close(): Promise<void>;
}

/**
 * Starts the fake on a free port. Its API, under `/api`:
 * - `POST /login` `{ username, password }` → `{ token, expiresIn }`; 401 `{ code: "bad-credentials" }`.
 * - With `Authorization: Bearer <token>` (else 401 `{ code: "token-expired" }`): `GET /me` → `{ username }`,
 *   `GET /notes`, `POST /notes` `{ text }` → 201 the note, `GET /notes/:id` (404 `{ code: "not-found" }`),
 *   `POST /logout` → 204.
 *
 * @param users - the accounts, user name → password
 */
export async function startFakeNotesApi(
  users: Readonly<Record<string, string>> = { alice: 'wonderland' },
): Promise<FakeNotesApi> {
  const tokens = new Map<string, string>();
  const notes = new Map<string, Note>();

  const send = (res: ServerResponse, status: number, body?: unknown) => {
    res.writeHead(
      status,
      body === undefined ? {} : { 'content-type': 'application/json' },
    );
    res.end(body === undefined ? undefined : JSON.stringify(body));
  };
  const readJson = async (
    req: IncomingMessage,
  ): Promise<Record<string, unknown>> => {
    let text = '';
    for await (const chunk of req) text += String(chunk);
    const value: unknown = JSON.parse(text || '{}');
    return typeof value === 'object' && value !== null
      ? (value as Record<string, unknown>)
      : {};
  };

  async function handle(
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    if (!/^\/api\/(?:login|logout|me|notes(?:\/[^/]+)?)$/.test(path))
      return send(res, 404, {
        code: 'no-route',
        message: `No route ${req.method} ${path}`,
      });
    if (req.method === 'POST' && path === '/api/login') {
      const { username, password } = await readJson(req);
      if (typeof username !== 'string' || users[username] !== password)
        return send(res, 401, {
          code: 'bad-credentials',
          message: 'Unknown user or wrong password',
        });
      const token = randomBytes(24).toString('base64url');
      tokens.set(token, username);
      return send(res, 200, { token, expiresIn: 3600 });
    }
    const token =
      /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const user = tokens.get(token);
    if (user === undefined)
      return send(res, 401, {
        code: 'token-expired',
        message: 'The token is not valid',
      });
    if (req.method === 'POST' && path === '/api/logout') {
      tokens.delete(token);
      return send(res, 204);
    }
    if (req.method === 'GET' && path === '/api/me')
      return send(res, 200, { username: user });
    if (req.method === 'GET' && path === '/api/notes')
      return send(res, 200, [...notes.values()]);
    if (req.method === 'POST' && path === '/api/notes') {
      const { text } = await readJson(req);
      if (typeof text !== 'string' || text === '')
        return send(res, 400, {
          code: 'invalid-note',
          message: 'A note needs a text',
        });
      const note = { id: String(notes.size + 1), text, author: user };
      notes.set(note.id, note);
      return send(res, 201, note);
    }
    const id = /^\/api\/notes\/([^/]+)$/.exec(path)?.[1];
    const note =
      id === undefined ? undefined : notes.get(decodeURIComponent(id));
    if (req.method === 'GET' && id !== undefined)
      return note === undefined
        ? send(res, 404, {
            code: 'not-found',
            message: `No note ${decodeURIComponent(id)}`,
          })
        : send(res, 200, note);
    send(res, 405, {
      code: 'no-method',
      message: `${req.method} is not allowed on ${path}`,
    });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() =>
      send(res, 400, { code: 'bad-request', message: 'Not JSON' }),
    );
  });
  await new Promise<void>((listening) =>
    server.listen(0, '127.0.0.1', listening),
  );
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get liveTokens() {
      return tokens.size;
    },
    expireTokens: () => tokens.clear(),
    close: () =>
      new Promise<void>((closed) => {
        server.closeAllConnections();
        server.close(() => closed());
      }),
  };
}
