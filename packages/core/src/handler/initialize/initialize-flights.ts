import { isSecret, secret } from '../../security/secret.js';
import { nodeCrypto } from '../../security/node-crypto.js';
import { openText, sealText } from '../../security/sealed-box.js';
import type { SessionKeys } from '../../security/session-keys.js';
import { pendingCache, unavailableCache, type PendingWrite } from '../../store/cache.js';
import type { Store } from '../../store/store.js';
import type { SharedLogin } from './shared-login.js';
import { SingleFlight } from './single-flight.js';

// Logins shared across instances (ARCHITECTURE.md, D14). Within a process, SingleFlight joins concurrent
// initializes of one configuration; its one flight then takes a lock in the shared store, so that only one
// instance logs in. The others poll for the leader's result, which it writes sealed (sealed-box.ts) under a name
// keyed by the session key and the whole initialize request: only an instance that received the very same
// configuration for the same system finds it, and no one who reads the store learns a credential. The result has
// one name whoever wrote it: a follower that polls after a new leader has taken over and released the lock still
// finds what it wrote. A leader that dies leaves a lock that expires; the next caller to find it gone takes it.
// A leader whose login fails leaves a sealed marker that says only that, so that the others each log in at once,
// side by side, rather than one after another (each answers its own outcome). Any store failure falls back to
// logging in alone.

/** What a lock-holding instance writes for the others. */
interface Published {
  readonly sdkSessionId: string;
  /** The record initialize returned: each value a plain value, or `{ secret }` for a secret(). */
  readonly record?: Readonly<Record<string, unknown>>;
  /** The list of entries initialize returned, each with the contract's three fields only. */
  readonly entries?: readonly unknown[];
  readonly writes: readonly PendingWrite[];
}

/** Options of {@link InitializeFlights}' store-wide sharing. */
export interface SharedFlightOptions {
  readonly store: Store;
  readonly keys: SessionKeys;
  readonly connector: string;
  /** How long a leader holds the lock at most; the others wait that long for it at most. */
  readonly lockTtlMs: number;
}

const FIRST_POLL_MS = 20;
const MAX_POLL_MS = 200;
/** What a leader whose login failed publishes: no error, nothing secret. Never valid published JSON. */
const FAILED = 'failed';
/** How long the failure marker lives at most: only the followers polling right then need it. */
const FAILED_TTL_MS = 5_000;

/**
 * Shares one login per configuration: within this process always, and across every instance of the store
 * when `shared` is given and its store can lock.
 *
 * @internal
 */
export class InitializeFlights {
  readonly #local = new SingleFlight<SharedLogin>();
  readonly #shared: StoreFlight | undefined;

  constructor(shared?: SharedFlightOptions) {
    const store = shared?.store;
    this.#shared =
      shared && store?.setIfAbsent && store.deleteIfEquals
        ? new StoreFlight({
            ...shared,
            setIfAbsent: store.setIfAbsent.bind(store),
            deleteIfEquals: store.deleteIfEquals.bind(store),
          })
        : undefined;
  }

  /**
   * @param key - the request's flight key (see `initializeFlightKey`)
   * @param signal - this caller's abort signal
   * @param work - the login
   */
  run(
    key: string,
    signal: AbortSignal,
    work: (signal: AbortSignal) => Promise<SharedLogin>,
  ): Promise<SharedLogin> {
    const shared = this.#shared;
    if (shared === undefined) return this.#local.run(key, signal, work);
    return this.#local.run(key, signal, (flight) => shared.run(key, flight, work));
  }
}

/** The options, with the store's lock methods known to be there. */
interface Locking extends SharedFlightOptions {
  readonly setIfAbsent: NonNullable<Store['setIfAbsent']>;
  readonly deleteIfEquals: NonNullable<Store['deleteIfEquals']>;
}

/** Waits `ms`, or rejects as soon as `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      if (signal.aborted) reject(signal.reason);
      else resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * One login at a time over every instance that shares a store that can lock: the instance that takes the lock
 * logs in and publishes its result, the others wait for it.
 */
class StoreFlight {
  readonly #options: Locking;

  constructor(options: Locking) {
    this.#options = options;
  }

  /** As {@link SingleFlight.run}, over the instances: `signal` is the flight's own. */
  async run(
    key: string,
    signal: AbortSignal,
    work: (signal: AbortSignal) => Promise<SharedLogin>,
  ): Promise<SharedLogin> {
    const { store, keys, connector, lockTtlMs, setIfAbsent, deleteIfEquals } = this.#options;
    const scope = `login:${encodeURIComponent(connector)}:${keys.signing.mac.base64url(
      `connector-sdk login 1\n${key}`,
    )}`;
    const deadline = Date.now() + 2 * lockTtlMs;
    let poll = FIRST_POLL_MS;
    for (;;) {
      signal.throwIfAborted();
      const token = nodeCrypto().randomUUID();
      let held: string | undefined;
      try {
        held = await setIfAbsent(scope, 'lock', { value: token, ttlMs: lockTtlMs });
      } catch {
        return work(signal); // the store cannot coordinate: log in alone rather than fail
      }
      if (held === undefined) {
        const publish = (text: string, ttlMs: number) =>
          store
            .set(scope, 'result', { value: sealText(keys, `${scope}\nresult`, text), ttlMs })
            .catch(() => undefined);
        // An earlier leader's result, or its failure marker, is not this login's: no follower may take it.
        await store.delete(scope, 'result').catch(() => undefined);
        try {
          let login: SharedLogin;
          try {
            login = await work(signal);
          } catch (error) {
            // Abandoned by every caller is no failure of the end system: one other instance takes over.
            if (!signal.aborted) await publish(FAILED, Math.min(lockTtlMs, FAILED_TTL_MS));
            throw error;
          }
          const text = publishable(login);
          if (text !== undefined) await publish(text, lockTtlMs);
          return login;
        } finally {
          // After the result: whoever sees the lock gone finds the result already there.
          await deleteIfEquals(scope, 'lock', token).catch(() => undefined);
        }
      }
      // Another instance logs in: wait for a result while a lock stands, whoever holds it by now.
      let text: string | undefined;
      const result = async () => {
        const sealed = await store.get(scope, 'result');
        return sealed && openText(keys, `${scope}\nresult`, sealed);
      };
      try {
        for (;;) {
          text = await result();
          if (text || (await store.get(scope, 'lock')) === undefined || Date.now() >= deadline)
            break;
          await sleep(poll, signal);
          poll = Math.min(MAX_POLL_MS, Math.ceil(poll * 1.5));
        }
        // Released or expired: the result was written before the release, if there was one to share.
        text ||= await result();
        if (text && text !== FAILED) return received(text);
      } catch (error) {
        if (signal.aborted) throw error;
        return work(signal);
      }
      if (text === FAILED) return work(signal); // the leader's login failed: try our own, at once
      // The leader failed, died or shared nothing: take the lock, unless waiting took too long already.
      if (Date.now() >= deadline) return work(signal);
    }
  }
}

/** The login as text another instance can revive, or `undefined` when it holds what JSON cannot carry. */
function publishable(login: SharedLogin): string | undefined {
  const { result } = login;
  let published: Published;
  if (Array.isArray(result)) {
    // Only the contract's three fields, as the answer has (initialize.ts): an extra one may be anything.
    const entries = result.map((entry: unknown) => {
      if (typeof entry !== 'object' || entry === null) return entry;
      const { key, value, sensitive } = entry as Record<string, unknown>;
      return { key, value, sensitive };
    });
    published = { sdkSessionId: login.sdkSessionId, entries, writes: [] };
  } else if (typeof result === 'object' && result !== null) {
    const record: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(result)) {
      if (isSecret(value)) record[name] = { secret: value.reveal() };
      else if (['string', 'number', 'boolean', 'undefined'].includes(typeof value))
        record[name] = value;
      else return undefined; // not an answer: the leader's own call fails, and each other one does alone
    }
    published = { sdkSessionId: login.sdkSessionId, record, writes: [] };
  } else return undefined;
  try {
    return JSON.stringify({ ...published, writes: login.sessionWrites.writes() });
  } catch {
    return undefined; // a BigInt or a cycle in an entry's own fields: nothing to share, the answer stands
  }
}

function received(text: string): SharedLogin {
  const published = JSON.parse(text) as Published;
  const result =
    published.entries ??
    Object.fromEntries(
      Object.entries(published.record ?? {}).map(([name, value]) => [
        name,
        typeof value === 'object' && value !== null
          ? secret((value as { secret: string }).secret)
          : value,
      ]),
    );
  const nowhere = () => unavailableCache(() => new Error('a shared login has no cache to read'));
  return {
    result,
    sdkSessionId: published.sdkSessionId,
    sessionWrites: pendingCache(nowhere, published.writes),
  };
}
