import type { SessionCheck } from '../../connector/session-check.js';
import { attachedConnectorError } from '../../errors/attached-error.js';
import { isConnectorError } from '../../errors/connector-error.js';
import { InternalError, UnauthenticatedError } from '../../errors/errors.js';
import { SDK_SESSION_HEADER_KEYS } from '../../security/header-safety.js';
import type { VerifiedSession } from './read-session.js';
import { SessionCheckContextImpl, type RequestScope } from '../request-scope.js';

type Headers = Readonly<Record<string, string | undefined>>;

const MAC_HEADER = SDK_SESSION_HEADER_KEYS.mac;
/** Sessions remembered at most; with keys of a fixed size, this bounds the bytes too (under 2 MB). */
const MAX_SESSIONS = 10_000;
/** A MAC is 43 characters; anything longer is never remembered, so no entry can grow. */
const MAX_KEY_LENGTH = 64;

/**
 * The key a passed check is remembered by: the session's MAC (the last field of its `X-Sdk-Session-Mac` token),
 * read only after the session verified. It covers the ids, the issue time and every session value, so no caller
 * can name another session's memo, and a new initialize is a new key.
 */
function memoKey(headers: Headers): string | undefined {
  const token = headers[MAC_HEADER];
  if (token === undefined) return undefined;
  const mac = token.slice(token.lastIndexOf(':') + 1);
  return mac.length > 0 && mac.length <= MAX_KEY_LENGTH ? mac : undefined;
}

/**
 * Runs a connector's `checkSession` before each later operation, once per platform request, and remembers the
 * sessions that passed for `memoMs` (ARCHITECTURE.md, D12): end systems such as CouchDB serve an expired session
 * as anonymous with 200, so no end-system 401 ever tells the platform to initialize again. Only passes are
 * remembered, in a bounded map of this process, the oldest forgotten first.
 *
 * @internal
 */
export class SessionChecks {
  readonly #spec: SessionCheck<unknown>;
  readonly #memoMs: number;
  readonly #maxSessions: number;
  /** Remembered passes: MAC → when the memo ends (ms since the epoch). */
  readonly #passed = new Map<string, number>();

  private constructor(spec: SessionCheck<unknown>, maxSessions: number) {
    this.#spec = spec;
    this.#memoMs = spec.memoMs ?? 0;
    this.#maxSessions = maxSessions;
  }

  /** The checks of a connector, or `undefined` when it has none. */
  static of(
    spec: SessionCheck<unknown> | undefined,
    maxSessions = MAX_SESSIONS,
  ): SessionChecks | undefined {
    return spec === undefined ? undefined : new SessionChecks(spec, maxSessions);
  }

  /**
   * Checks the verified session of the request `state` serves (its operation and headers), unless a pass is
   * remembered.
   *
   * @returns `undefined` when a remembered pass lets the call go on at once, else the check
   * @throws UnauthenticatedError `SESSION_EXPIRED` (through the promise) when the check says the session ended
   */
  run(state: RequestScope, session: VerifiedSession): Promise<void> | undefined {
    const key = this.#memoMs > 0 ? memoKey(state.request.headers) : undefined;
    if (key !== undefined) {
      const until = this.#passed.get(key);
      if (until !== undefined && until > Date.now()) return undefined;
      if (until !== undefined) this.#passed.delete(key);
    }
    const context = new SessionCheckContextImpl(state, {
      session: session.values,
      sdkSessionId: session.sdkSessionId,
      systemId: session.systemId,
      operation: state.operation,
    });
    return (async () => {
      const held: unknown = await this.#spec.check(context as never);
      if (typeof held !== 'boolean') {
        // Taken as "ended", a forgotten `return` would have the platform initialize again on every call.
        throw new InternalError(
          `checkSession.check returned ${held === null ? 'null' : typeof held}, not a boolean`,
        );
      }
      if (!held) {
        throw new UnauthenticatedError(
          'The end system no longer accepts this session (checkSession); initialize again',
          { code: 'SESSION_EXPIRED' },
        );
      }
      if (key !== undefined) this.#remember(key);
    })();
  }

  /** Forgets the session of a call that failed with a 401: the next call checks it again. */
  failed(headers: Headers, error: unknown): void {
    if (this.#passed.size === 0) return;
    const answer = isConnectorError(error) ? error : attachedConnectorError(error);
    if (answer?.status === 401) this.forget(headers);
  }

  /** Forgets a session (it was cleaned up, or failed). */
  forget(headers: Headers): void {
    const key = memoKey(headers);
    if (key !== undefined) this.#passed.delete(key);
  }

  #remember(key: string): void {
    this.#passed.delete(key);
    this.#passed.set(key, Date.now() + this.#memoMs);
    for (const oldest of this.#passed.keys()) {
      if (this.#passed.size <= this.#maxSessions) break;
      this.#passed.delete(oldest);
    }
  }

  /** How many passes are remembered; for tests. */
  get size(): number {
    return this.#passed.size;
  }
}
