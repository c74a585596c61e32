import { openText, sealText } from '../security/sealed-box.js';
import type { SessionKeys } from '../security/session-keys.js';
import type { Cache } from './cache.js';
import type { Store } from './store.js';

// What the SDK's own login code (`@connector-sdk/core/auth`) keeps for a session beside connector code's values:
// a token set that changes between initializes (a rotated refresh token) and so cannot live in the session the
// platform replays. It goes into the session's cache like any value, sealed (sealed-box.ts) under the session key
// every instance shares, so whoever reads the store learns no token; and a refresh takes a lock in the session's
// scope of the store, so one instance of many refreshes. The vault reaches the auth kit through the session cache
// a context holds, under a registry symbol (two copies of the package, ESM and CJS, find each other's), so no
// context gains a member and no author threads anything through.

/** A lock in one session's scope of the store, when the store can lock. @internal */
export interface VaultLock {
  /** Takes the lock for `ttlMs` unless another holds it; `undefined` when taken, else the holder's token. */
  acquire(key: string, token: string, ttlMs: number): Promise<string | undefined>;
  /** Gives the lock back, if `token` still holds it. */
  release(key: string, token: string): Promise<void>;
}

/** What the auth kit may do with a session's cache besides reading and writing values. @internal */
export interface SessionVault {
  /** Seals a text to store under `name`; only `open` with the same name opens it. */
  seal(name: string, text: string): string;
  /** Opens what `seal` sealed under `name`, or `undefined` when it is not one this connector sealed there. */
  open(name: string, sealed: string): string | undefined;
  /** The store-wide lock, absent during initialize (there is no session yet) and on a store that cannot lock. */
  readonly lock: VaultLock | undefined;
}

/** @internal The symbol under which a session cache carries its vault. */
export const SESSION_VAULT = Symbol.for('@connector-sdk/session-vault');

/** A label bound into every sealed name, so nothing else the SDK seals opens as a vault value. */
const LABEL = 'session-vault:';

/**
 * Makes a session's vault: seals with the handler's keys, locks in `scope` of `store` when it can.
 *
 * @internal
 */
export function sessionVault(keys: SessionKeys, store?: Store, scope?: string): SessionVault {
  const lock: VaultLock | undefined =
    store?.setIfAbsent && store.deleteIfEquals && scope !== undefined
      ? {
          acquire: (key, token, ttlMs) =>
            (store.setIfAbsent as NonNullable<Store['setIfAbsent']>)(scope, key, {
              value: token,
              ttlMs,
            }),
          release: async (key, token) => {
            await (store.deleteIfEquals as NonNullable<Store['deleteIfEquals']>)(scope, key, token);
          },
        }
      : undefined;
  return {
    seal: (name, text) => sealText(keys, LABEL + name, text),
    open: (name, sealed) => openText(keys, LABEL + name, sealed),
    lock,
  };
}

const sealingOnly = new WeakMap<SessionKeys, SessionVault>();

/**
 * The vault of initialize's session cache: sealing only, one per handler's keys (made once, not per initialize).
 *
 * @internal
 */
export function sealingVault(keys: SessionKeys): SessionVault {
  let vault = sealingOnly.get(keys);
  if (vault === undefined) {
    vault = sessionVault(keys);
    sealingOnly.set(keys, vault);
  }
  return vault;
}

/**
 * Gives a cache its vault, as a property no spread, JSON or log line shows.
 *
 * @internal
 */
export function withVault<C extends Cache>(cache: C, vault: SessionVault): C {
  Object.defineProperty(cache, SESSION_VAULT, { value: vault, enumerable: false });
  return cache;
}

/** @internal The vault of a context's session cache, or `undefined` for any other cache. */
export function vaultOf(cache: unknown): SessionVault | undefined {
  if (typeof cache !== 'object' || cache === null) return undefined;
  const vault = (cache as Record<symbol, unknown>)[SESSION_VAULT];
  return typeof vault === 'object' && vault !== null ? (vault as SessionVault) : undefined;
}
