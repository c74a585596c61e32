import { nodeCrypto } from '../../security/node-crypto.js';
import type { SigningKey } from './oauth2-options.js';

// JWTs the auth kit signs: a client's assertion (`private_key_jwt`, RFC 7523 §2.2) and a JWT bearer grant's
// (RFC 7523 §2.1). Signed by `jose`, loaded only when the first one is signed, so a connector that never signs
// does not load it (ARCHITECTURE.md, D19). The key is turned into Node's `KeyObject` first, which jose signs
// with, so a PEM and a JWK take the same path and the algorithm can be read from the key.

/** What one assertion says and who signs it. */
export interface AssertionClaims {
  readonly issuer: string;
  readonly subject: string;
  readonly audience: string;
  readonly privateKey: SigningKey;
  readonly keyId?: string | undefined;
  readonly algorithm?: string | undefined;
}

const CURVE_ALGORITHMS: Readonly<Record<string, string>> = {
  prime256v1: 'ES256',
  secp384r1: 'ES384',
  secp521r1: 'ES512',
};

function keyObject(key: SigningKey) {
  const crypto = nodeCrypto();
  try {
    return typeof key === 'string'
      ? crypto.createPrivateKey(key)
      : crypto.createPrivateKey({ key: key as never, format: 'jwk' });
  } catch {
    // The key's text is not quoted: it is the secret.
    throw new TypeError('The signing key is not a private key in PEM (PKCS #8) or JWK form');
  }
}

function algorithmOf(key: ReturnType<typeof keyObject>, given: string | undefined): string {
  if (given !== undefined) return given;
  const type = key.asymmetricKeyType;
  if (type === 'rsa') return 'RS256';
  if (type === 'ed25519') return 'EdDSA';
  const curve = key.asymmetricKeyDetails?.namedCurve;
  const algorithm = type === 'ec' && curve !== undefined ? CURVE_ALGORITHMS[curve] : undefined;
  if (algorithm === undefined)
    throw new TypeError(`No signing algorithm is known for a ${type ?? 'secret'} key: name one`);
  return algorithm;
}

/**
 * Signs one assertion: `iss`, `sub`, `aud`, a fresh `jti`, `iat` now and `exp` in five minutes.
 *
 * @param claims - the claims and the key
 * @param now - the clock, epoch milliseconds
 * @returns the signed JWT
 * @throws TypeError when the key is not a private key, or its algorithm cannot be told
 * @internal
 */
export async function signAssertion(claims: AssertionClaims, now: number): Promise<string> {
  const key = keyObject(claims.privateKey);
  const jwk = typeof claims.privateKey === 'string' ? undefined : claims.privateKey;
  const alg = algorithmOf(key, claims.algorithm ?? jwk?.alg);
  const kid = claims.keyId ?? jwk?.kid;
  const { SignJWT } = await import('jose');
  const seconds = Math.floor(now / 1000);
  return new SignJWT({})
    .setProtectedHeader(kid === undefined ? { alg } : { alg, kid })
    .setIssuer(claims.issuer)
    .setSubject(claims.subject)
    .setAudience(claims.audience)
    .setJti(nodeCrypto().randomUUID())
    .setIssuedAt(seconds)
    .setExpirationTime(seconds + 300)
    .sign(key);
}
