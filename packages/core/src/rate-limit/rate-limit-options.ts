import type { RateLimitStore } from './rate-limit-store.js';

/**
 * What a rate-limit key is chosen from. Every field comes from a verified session (later calls, cleanup) or
 * from the initialize being counted, never from anything else a caller sends.
 *
 * @example
 * ```ts
 * import {
 *   createHandler,
 *   type Connector,
 *   type RateLimitKeyInput,
 * } from '@connector-sdk/core';
 *
 * declare const connector: Connector;
 * // one limit per system as configured, whatever the session
 * const key = ({ systemId, configuration }: RateLimitKeyInput) =>
 *   `${systemId}:${configuration}`;
 * createHandler(connector, { rateLimit: { limit: 100, windowMs: 60_000, key } });
 * ```
 */
export interface RateLimitKeyInput {
  /** The route's name: `initialize`, `cleanup` or an operation name. */
  readonly operation: string;
  /** The platform's system id. */
  readonly systemId: string;
  /** The platform's session id. */
  readonly sdkSessionId: string;
  /**
   * A keyed fingerprint of the configuration the session was (or, on initialize, is being) initialized with:
   * the same for every session of a system with the same configuration, and unguessable without it. It covers
   * the declared configuration fields as they parsed, so an undeclared entry or a trailing `/` on a
   * `field.url()` changes nothing (every entry counts when the connector declares none). Keep it in the key:
   * a key of `systemId` alone lets anyone who can reach the connector spend a system's quota with initializes
   * that carry a made-up configuration.
   */
  readonly configuration: string;
}

/**
 * A connector-side rate limit (contract, Limits 1): at most `limit` calls per `windowMs` per key; past it
 * the SDK answers 403 `RATE_LIMITED` with the wait header, and the platform waits and resumes.
 *
 * Later calls and cleanup are counted once their session verified; initialize is counted once its body is
 * well-formed, before connector code logs in. The default key is the system together with its configuration,
 * so a caller without a tenant's configuration (credentials included) counts against a key of its own and
 * can never make that tenant's calls answer 403. What it does not do: limit a caller who varies the
 * credentials (password guessing); the end system's lockout and the connector's network placement do that.
 *
 * @example
 * ```ts
 * import { createHandler, type Connector } from '@connector-sdk/core';
 * declare const connector: Connector;
 * // 600 calls a minute per system as configured
 * createHandler(connector, { rateLimit: { limit: 600, windowMs: 60_000 } });
 * ```
 */
export interface RateLimitOptions {
  /** Calls allowed per window and key. */
  readonly limit: number;
  /** Window length in milliseconds. */
  readonly windowMs: number;
  /**
   * The key a call counts against; return `undefined` to not limit the call.
   *
   * @default the system id and the configuration fingerprint: one count per system as configured
   */
  readonly key?: (input: RateLimitKeyInput) => string | undefined;
  /**
   * Where counters live. Leave it out and give the handler a shared `store` instead to count across instances.
   *
   * @default the handler's `store` when it has one, else a new {@link MemoryRateLimitStore}
   */
  readonly store?: RateLimitStore;
}
