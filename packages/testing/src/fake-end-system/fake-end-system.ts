import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { applyFault } from './apply-fault.js';
import { takeFault, type FakeFault, type FaultMatch, type PendingFault } from './fake-fault.js';
import { INVALID, TOO_LARGE, errorBody, readJson, send } from './fake-http.js';

/** Options of {@link startFakeEndSystem}. */
export interface FakeEndSystemOptions {
  /** The accounts that may log in, user name → password. @default { alice: 'wonderland' } */
  readonly users?: Readonly<Record<string, string>>;
  /** How long a token lives. @default 3_600_000 */
  readonly tokenTtlMs?: number;
  /** How many calls a token serves before it expires. @default Infinity */
  readonly tokenMaxUses?: number;
  /** The clock token lifetimes are measured by. @default Date.now */
  readonly now?: () => number;
}

/** A record of the fake end system's one resource. */
export interface FakeRecord {
  /** The record's id, assigned by the fake. */
  readonly id: string;
  /** Its title; required. */
  readonly title: string;
  /** Any other fields the client sent. */
  readonly [field: string]: unknown;
}

/** A request the fake end system received. */
export interface FakeRequestLog {
  /** HTTP method. */
  readonly method: string;
  /** Path without the query. */
  readonly path: string;
  /** Whether it carried a bearer token (valid or not). */
  readonly bearer: boolean;
}

interface Token {
  readonly user: string;
  readonly expiresAt: number;
  uses: number;
}

/**
 * A scriptable end system on `127.0.0.1` for connector tests: token login, one CRUD resource, expiring
 * tokens and injectable faults, so authors prove their error mapping without a real account.
 *
 * Its API (JSON in and out; errors are `{ "error": { "code", "message" } }`):
 * - `POST /auth/login` `{ username, password }` → 200 `{ token, expiresIn }` (seconds); 401
 *   `INVALID_CREDENTIALS`.
 * - `POST /auth/logout` → 204. Every other route needs `Authorization: Bearer <token>`: 401 `TOKEN_INVALID`
 *   or `TOKEN_EXPIRED`.
 * - `GET /me` → `{ username }`.
 * - `GET /records`, `POST /records` `{ title, … }` (201; 400 `INVALID_RECORD`), `GET|PUT|DELETE
 *   /records/:id` (404 `RECORD_NOT_FOUND`).
 */
export class FakeEndSystem {
  /** The base URL, such as `http://127.0.0.1:41234`. */
  readonly url: string;
  /** The records, by id; tests may read and change them directly. */
  readonly records = new Map<string, FakeRecord>();
  /** Every request received, in order. */
  readonly requests: FakeRequestLog[] = [];
  readonly #server: Server;
  readonly #options: FakeEndSystemOptions;
  readonly #tokens = new Map<string, Token>();
  readonly #faults: PendingFault[] = [];
  readonly #timers = new Set<NodeJS.Timeout>();
  #closed: Promise<void> | undefined;
  #nextId = 1;

  /**
   * @param server - the listening server
   * @param options - accounts and token lifetimes
   * @internal use {@link startFakeEndSystem}
   */
  constructor(server: Server, options: FakeEndSystemOptions) {
    this.#server = server;
    this.#options = options;
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      this.#handle(req, res).catch(() => res.destroy());
    });
  }

  /**
   * Queues a fault for the next matching request(s).
   *
   * @param fault - what to do instead of answering normally
   * @param match - which requests, how many times
   * @returns this, for chaining
   * @example
   * ```ts
   * fake.inject({ kind: 'rate-limit', retryAfterSeconds: 2 }, { path: '/records', times: 1 });
   * ```
   */
  inject(fault: FakeFault, match: FaultMatch = {}): this {
    const times = match.times ?? 1;
    if (!Number.isInteger(times) || times < 1)
      throw new RangeError(`times must be a whole number of at least 1, not ${times}`);
    this.#faults.push({ fault, match, remaining: times });
    return this;
  }

  /** Drops every fault not yet used. */
  clearFaults(): void {
    this.#faults.length = 0;
  }

  /** Expires every token issued so far, as if their sessions timed out. */
  expireTokens(): void {
    for (const [token, state] of this.#tokens) this.#tokens.set(token, { ...state, expiresAt: 0 });
  }

  /** How many tokens are live (issued, not logged out, not expired). */
  get liveTokens(): number {
    const now = this.#now();
    let live = 0;
    for (const token of this.#tokens.values()) if (this.#alive(token, now)) live++;
    return live;
  }

  /**
   * Stops the server and closes its connections.
   *
   * @returns when it is closed
   */
  close(): Promise<void> {
    this.#closed ??= new Promise((resolve) => {
      for (const timer of this.#timers) clearTimeout(timer);
      this.#timers.clear();
      this.#server.close(() => resolve());
      this.#server.closeAllConnections();
    });
    return this.#closed;
  }

  #delay(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#timers.delete(timer);
        resolve();
      }, ms);
      this.#timers.add(timer);
    });
  }

  #now(): number {
    return (this.#options.now ?? Date.now)();
  }

  #alive(token: Token, now: number): boolean {
    return token.expiresAt > now && token.uses < (this.#options.tokenMaxUses ?? Infinity);
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    const bearer = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    this.requests.push({ method, path, bearer: bearer !== undefined });
    const fault = takeFault(this.#faults, method, path);
    if (fault !== undefined) {
      if (fault.kind !== 'slow') return applyFault(fault, res);
      await this.#delay(fault.delayMs);
    }
    const body = await readJson(req);
    if (body === TOO_LARGE) {
      // Stop reading: answer and close the connection rather than drain a body this large.
      res.setHeader('connection', 'close');
      return send(res, 413, errorBody('BODY_TOO_LARGE', 'The body is over 1 MiB'));
    }
    if (body === INVALID) return send(res, 400, errorBody('BAD_REQUEST', 'The body is not JSON'));

    if (method === 'POST' && path === '/auth/login') return this.#login(body, res);
    if (method === 'POST' && path === '/auth/logout') {
      if (bearer !== undefined) this.#tokens.delete(bearer);
      return send(res, 204);
    }
    const token = bearer === undefined ? undefined : this.#tokens.get(bearer);
    if (token === undefined) return send(res, 401, errorBody('TOKEN_INVALID', 'Log in first'));
    if (!this.#alive(token, this.#now()))
      return send(res, 401, errorBody('TOKEN_EXPIRED', 'The token has expired; log in again'));
    token.uses++;

    if (method === 'GET' && path === '/me') return send(res, 200, { username: token.user });
    if (path === '/records') {
      if (method === 'GET') return send(res, 200, { records: [...this.records.values()] });
      if (method === 'POST') return this.#save({ id: String(this.#nextId++), body }, res, 201);
    }
    const id = /^\/records\/([^/]+)$/.exec(path)?.[1];
    if (id !== undefined) {
      const record = this.records.get(decodeURIComponent(id));
      if (record === undefined)
        return send(res, 404, errorBody('RECORD_NOT_FOUND', `No record ${decodeURIComponent(id)}`));
      if (method === 'GET') return send(res, 200, record);
      if (method === 'PUT') return this.#save({ id: record.id, body }, res, 200);
      if (method === 'DELETE') {
        this.records.delete(record.id);
        return send(res, 204);
      }
    }
    return send(res, 404, errorBody('NO_SUCH_ENDPOINT', `No endpoint ${method} ${path}`));
  }

  #login(body: unknown, res: ServerResponse): void {
    const { username, password } = (body ?? {}) as { username?: unknown; password?: unknown };
    const users = this.#options.users ?? { alice: 'wonderland' };
    if (
      typeof username !== 'string' ||
      typeof password !== 'string' ||
      users[username] !== password
    )
      return send(res, 401, errorBody('INVALID_CREDENTIALS', 'Wrong user name or password'));
    const token = randomBytes(24).toString('base64url');
    const ttlMs = this.#options.tokenTtlMs ?? 3_600_000;
    this.#tokens.set(token, { user: username, expiresAt: this.#now() + ttlMs, uses: 0 });
    send(res, 200, { token, expiresIn: Math.floor(ttlMs / 1000) });
  }

  /** Writes the record `id` as `body` says, answering `status`. */
  #save(
    write: { readonly id: string; readonly body: unknown },
    res: ServerResponse,
    status: number,
  ): void {
    const { id } = write;
    const fields = write.body as Record<string, unknown> | undefined;
    if (typeof fields !== 'object' || fields === null || Array.isArray(fields))
      return send(res, 400, errorBody('INVALID_RECORD', 'A record is a JSON object'));
    if (typeof fields.title !== 'string' || fields.title.trim() === '')
      return send(res, 400, errorBody('INVALID_RECORD', 'A record needs a title'));
    const record: FakeRecord = { ...fields, id, title: fields.title };
    this.records.set(id, record);
    send(res, status, record);
  }
}

/**
 * Starts a fake end system on `127.0.0.1` on a free port.
 *
 * @param options - accounts and token lifetimes
 * @returns the running fake; `close()` it after the tests
 * @example
 * ```ts
 * const fake = await startFakeEndSystem({ users: { alice: 'wonderland' }, tokenMaxUses: 3 });
 * fake.inject({ kind: 'server-error', status: 503 }, { path: '/records' });
 * // … point the connector's configuration at fake.url …
 * await fake.close();
 * ```
 */
export async function startFakeEndSystem(
  options: FakeEndSystemOptions = {},
): Promise<FakeEndSystem> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return new FakeEndSystem(server, options);
}
