import { nodeCrypto } from './node-crypto.js';
import type { SessionKeys } from './session-keys.js';

// What the SDK itself writes to a shared store and must keep secret there: a login shared across instances
// (ARCHITECTURE.md, D14) holds the session's credentials. Encrypted and authenticated with AES-256-GCM under a
// key derived (HKDF-SHA256) from the session key every instance already shares, so whoever reads the store
// learns nothing and can forge nothing; the name it is stored under is bound in as associated data, so a sealed
// value copied to another name does not open. The format names the key, so instances mid-rotation still open
// each other's:
//
//   1:<key id>:<iv, base64url>:<ciphertext and tag, base64url>

const VERSION = '1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const derived = new WeakMap<Buffer, Buffer>();

function boxKey(secret: Buffer): Buffer {
  let key = derived.get(secret);
  if (key === undefined) {
    key = Buffer.from(
      nodeCrypto().hkdfSync('sha256', secret, Buffer.alloc(0), 'connector-sdk sealed box 1', 32),
    );
    derived.set(secret, key);
  }
  return key;
}

/**
 * Encrypts a text for a shared store with the current session key.
 *
 * @param keys - the handler's session keys
 * @param name - where the value is stored; it must be given again to open it
 * @param text - what to keep secret
 * @returns the sealed value
 * @internal
 */
export function sealText(keys: SessionKeys, name: string, text: string): string {
  const crypto = nodeCrypto();
  const iv = crypto.randomBytes(IV_BYTES);
  const cipher = crypto.createCipheriv('aes-256-gcm', boxKey(keys.signing.secret), iv);
  cipher.setAAD(Buffer.from(name));
  const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `${VERSION}:${keys.signing.id}:${iv.toString('base64url')}:${body.toString('base64url')}`;
}

/**
 * Opens what {@link sealText} sealed under the same name, with whichever of the handler's keys sealed it.
 *
 * @param keys - the handler's session keys
 * @param name - where the value was stored
 * @param sealed - the sealed value
 * @returns the text, or `undefined` when it is not one this connector sealed under that name
 * @internal
 */
export function openText(keys: SessionKeys, name: string, sealed: string): string | undefined {
  const [version, id, iv, body, ...rest] = sealed.split(':');
  if (version !== VERSION || id === undefined || iv === undefined || body === undefined) return;
  if (rest.length > 0) return;
  const key = keys.byId(id);
  if (key === undefined) return;
  const bytes = Buffer.from(body, 'base64url');
  const ivBytes = Buffer.from(iv, 'base64url');
  if (bytes.length < TAG_BYTES || ivBytes.length !== IV_BYTES) return;
  try {
    const decipher = nodeCrypto().createDecipheriv('aes-256-gcm', boxKey(key.secret), ivBytes);
    decipher.setAAD(Buffer.from(name));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    const plain = Buffer.concat([
      decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)),
      decipher.final(),
    ]);
    return plain.toString('utf8');
  } catch {
    return undefined;
  }
}
