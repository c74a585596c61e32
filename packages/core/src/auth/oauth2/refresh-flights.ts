import { ConnectorError } from '../../errors/connector-error.js';
import { attachedConnectorError } from '../../errors/attached-error.js';
import { UnauthenticatedError } from '../../errors/errors.js';
import { nodeCrypto } from '../../security/node-crypto.js';
import {
  expiryOf,
  requireRecord,
  writeRecord,
  type LoginPlace,
  type TokenRecord,
} from './token-record.js';
import type { TokenEndpointOptions } from './oauth2-options.js';
import { requestTokens, type TokenCaller } from './token-endpoint.js';

// One refresh for every call that needs it (Nango #1005, Pipedream #9252: refreshes that race lose a rotated
// refresh token, and a server that detects the reuse revokes the whole grant). Within a process, calls that
// found the same expired access token join one flight. Across instances, the flight takes a lock in the
// session's scope of the shared store; an instance that finds it taken waits for the holder's new record. The
// holder reads the record again once it holds the lock, so a refresh another instance finished just before is
// used, not repeated. Without a store that locks (the memory store), the process's flight is the only one.

/** How long a refresh holds the lock beyond the token request's own deadline. */
const LOCK_MARGIN_MS = 15_000;
const FIRST_POLL_MS = 20;
const MAX_POLL_MS = 200;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The refreshes of one `oauth2` login, by the access token they replace. @internal */
export class RefreshFlights {
  readonly #flights = new Map<string, Promise<TokenRecord>>();
  readonly #now: () => number;
  readonly #margin: number;
  readonly #options: TokenEndpointOptions | undefined;

  constructor(
    clock: { now: () => number; margin: number },
    options: TokenEndpointOptions | undefined,
  ) {
    this.#now = clock.now;
    this.#margin = clock.margin;
    this.#options = options;
  }

  /**
   * The record that replaces `stale`: refreshed here, or by the flight or instance already doing it.
   *
   * @throws UnauthenticatedError (`SESSION_EXPIRED`) when the session cannot be renewed
   */
  renew(place: LoginPlace, stale: TokenRecord, caller: TokenCaller): Promise<TokenRecord> {
    const key = stale.accessToken;
    let flight = this.#flights.get(key);
    if (flight === undefined) {
      flight = this.#acrossInstances(place, stale, caller).finally(() => this.#flights.delete(key));
      this.#flights.set(key, flight);
    }
    return flight;
  }

  async #acrossInstances(
    place: LoginPlace,
    stale: TokenRecord,
    caller: TokenCaller,
  ): Promise<TokenRecord> {
    const lock = place.vault.lock;
    if (lock === undefined) {
      // Read again: a flight of this process that ended just before may have renewed it.
      const current = await requireRecord(place);
      if (current.accessToken !== stale.accessToken) return current;
      return this.#refresh(place, current, caller);
    }
    const token = nodeCrypto().randomUUID();
    const lockTtlMs = (this.#options?.deadlineMs ?? 30_000) + LOCK_MARGIN_MS;
    const giveUpAt = Date.now() + lockTtlMs;
    let wait = FIRST_POLL_MS;
    for (;;) {
      if ((await lock.acquire(place.lockKey, token, lockTtlMs)) === undefined) {
        try {
          const current = await requireRecord(place);
          if (current.accessToken !== stale.accessToken) return current;
          return await this.#refresh(place, current, caller);
        } finally {
          await lock.release(place.lockKey, token).catch(() => undefined);
        }
      }
      const current = await requireRecord(place);
      if (current.accessToken !== stale.accessToken) return current;
      if (Date.now() > giveUpAt)
        throw new ConnectorError(
          'SERVICE_UNAVAILABLE',
          'Another instance is still renewing this session’s tokens; try again shortly',
        );
      await pause(wait);
      wait = Math.min(wait * 2, MAX_POLL_MS);
    }
  }

  async #refresh(
    place: LoginPlace,
    record: TokenRecord,
    caller: TokenCaller,
  ): Promise<TokenRecord> {
    const params: Record<string, string> =
      record.refreshToken !== undefined
        ? { grant_type: 'refresh_token', refresh_token: record.refreshToken }
        : record.repeatable
          ? { grant_type: 'client_credentials', ...(record.scope && { scope: record.scope }) }
          : {};
    if (params.grant_type === undefined)
      throw new UnauthenticatedError(
        'The access token expired, and this login has no refresh token to renew it: initialize again',
      );
    const requestedAt = this.#now();
    const endpoint = {
      url: record.tokenUrl,
      client: record.client,
      format: record.format,
      options: this.#options,
    };
    let answer;
    try {
      // No signal: the refresh serves every call that joined it, not only the one whose platform may leave.
      answer = await requestTokens(endpoint, params, {
        caller: { log: caller.log, addSecret: (value) => caller.addSecret(value) },
        phase: 'refresh',
        now: requestedAt,
      });
    } catch (error) {
      // A refresh token the server refuses will not work again: later calls answer 401 without asking.
      if (refusedSession(error)) await place.cache.delete(place.key).catch(() => undefined);
      throw error;
    }
    const next: TokenRecord = {
      ...record,
      accessToken: answer.accessToken,
      tokenType: answer.tokenType,
      // RFC 6749 §6: without a new refresh token, the old one stays valid.
      refreshToken: answer.refreshToken ?? record.refreshToken,
    };
    delete next.expiresAt;
    delete next.renewAt;
    Object.assign(next, expiryOf(requestedAt, answer.expiresInSeconds, this.#margin));
    await writeRecord(place, next);
    return next;
  }
}

/**
 * Whether a renewal failed because the server refused the session (a 401 `SESSION_EXPIRED`, or a login that
 * cannot be renewed), not because it failed.
 *
 * @internal
 */
export function refusedSession(error: unknown): boolean {
  return (
    error instanceof UnauthenticatedError ||
    attachedConnectorError(error)?.code === 'SESSION_EXPIRED'
  );
}
