import { hmacSha256, type HmacSha256 } from './hmac-sha256.js';
import { nodeCrypto } from './node-crypto.js';

/**
 * The environment variable the handler reads its session keys from when the `sessionKey` option is absent:
 * keys separated by commas, the one that signs first. Set it to the same secret on every instance.
 *
 * @example
 * ```ts
 * import { SESSION_KEY_ENV } from '@connector-sdk/core';
 * // CONNECTOR_SDK_SESSION_KEY="$(openssl rand -base64 32)" node dist/main.js
 * // true when the deployment configured a key:
 * process.env[SESSION_KEY_ENV] !== undefined;
 * ```
 */
export const SESSION_KEY_ENV = 'CONNECTOR_SDK_SESSION_KEY';

/**
 * Fewest characters a session key may have (32 random bytes in base64 are 44).
 *
 * @example
 * ```ts
 * import { MIN_SESSION_KEY_LENGTH } from '@connector-sdk/core';
 * declare const key: string;
 * if (key.length < MIN_SESSION_KEY_LENGTH)
 *   throw new Error('the session key is too short');
 * ```
 */
export const MIN_SESSION_KEY_LENGTH = 32;

/** One key: its bytes and a short id, so a session names the key that signed it without revealing it. */
interface SessionKey {
  readonly id: string;
  readonly secret: Buffer;
  /** HMAC-SHA-256 under this key, of a text's UTF-8 bytes. */
  readonly mac: HmacSha256;
}

/**
 * The keys that sign and verify sessions: the first signs, every one verifies (rotation). Never printed: the
 * class has no enumerable key material and `toJSON`/`inspect` show only how many keys it holds.
 *
 * @internal
 */
export class SessionKeys {
  /** The key new sessions are signed with. */
  readonly signing: SessionKey;
  /** Whether the key was made at random by this process, so no other process can verify its sessions. */
  readonly generated: boolean;
  readonly #byId: ReadonlyMap<string, SessionKey>;

  constructor(secrets: readonly Buffer[], generated: boolean) {
    const keys = secrets.map((secret) => {
      const mac = hmacSha256(secret);
      return { id: keyId(mac), secret, mac };
    });
    this.signing = keys[0] as SessionKey;
    this.generated = generated;
    this.#byId = new Map(keys.map((key) => [key.id, key]));
    Object.defineProperty(this, 'signing', { enumerable: false });
  }

  /** The key with this id, or `undefined` when this connector does not hold it. */
  byId(id: string): SessionKey | undefined {
    return this.#byId.get(id);
  }

  toJSON(): string {
    return `[SessionKeys: ${this.#byId.size}]`;
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return this.toJSON();
  }
}

/** A short public id of a key: the start of an HMAC with the key of a fixed label, so it reveals nothing. */
function keyId(mac: HmacSha256): string {
  return mac.base64url('connector-sdk key id').slice(0, 8);
}

let processKeys: SessionKeys | undefined;

/** What {@link resolveSessionKeys} decides from. */
export interface SessionKeySource {
  /** The handler's `sessionKey` option. */
  readonly sessionKey?: string | readonly string[] | undefined;
  /** The environment variable's value, when set. */
  readonly fromEnvironment?: string | undefined;
  /**
   * Why this handler needs a key every instance shares (a shared store), or `undefined` when a random key of
   * this process will do.
   */
  readonly sharedBecause?: string | undefined;
}

/**
 * Chooses the session keys: the `sessionKey` option, else the environment variable, else (when nothing is
 * shared between instances) one random key for the whole process.
 *
 * @throws TypeError naming the option when a key is malformed, or when none is configured but one is needed;
 *   the message never contains a key
 * @internal
 */
export function resolveSessionKeys(source: SessionKeySource): SessionKeys {
  if (source.sessionKey !== undefined) {
    return new SessionKeys(checkKeys(source.sessionKey, 'the sessionKey option'), false);
  }
  const fromEnvironment = source.fromEnvironment?.trim();
  if (fromEnvironment) {
    const keys = fromEnvironment.split(',').map((key) => key.trim());
    return new SessionKeys(checkKeys(keys, `the ${SESSION_KEY_ENV} environment variable`), false);
  }
  if (source.sharedBecause !== undefined) {
    throw new TypeError(
      `${source.sharedBecause}, so every instance must verify the sessions the others sign: give the ` +
        `sessionKey option (or set ${SESSION_KEY_ENV}) the same secret of at least ` +
        `${MIN_SESSION_KEY_LENGTH} characters on every instance`,
    );
  }
  return (processKeys ??= new SessionKeys([nodeCrypto().randomBytes(32)], true));
}

function checkKeys(keys: string | readonly string[], where: string): Buffer[] {
  const list: readonly unknown[] = typeof keys === 'string' ? [keys] : keys;
  if (!Array.isArray(list) || list.length === 0)
    throw new TypeError(`${where} must be a key or a non-empty list of keys`);
  const seen = new Set<string>();
  return list.map((key, index) => {
    const which = list.length === 1 ? 'the key' : `key ${index + 1}`;
    if (typeof key !== 'string') throw new TypeError(`In ${where}, ${which} is not a string`);
    if (key.length < MIN_SESSION_KEY_LENGTH) {
      throw new TypeError(
        `In ${where}, ${which} has ${key.length} characters; a session key needs at least ` +
          `${MIN_SESSION_KEY_LENGTH} (make one with: openssl rand -base64 32)`,
      );
    }
    if (seen.has(key)) throw new TypeError(`In ${where}, ${which} repeats an earlier key`);
    seen.add(key);
    return Buffer.from(key, 'utf8');
  });
}
