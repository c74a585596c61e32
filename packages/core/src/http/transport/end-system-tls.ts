import { createHash, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as tls from 'node:tls';
import type { EndSystemTlsOptions } from '../end-system-client-options.js';

/** The Node default roots, read once: `ca` replaces them in Node's TLS, so they are added back to it. */
let defaultRoots: readonly string[] | undefined;

function defaultRootCertificates(): readonly string[] {
  if (defaultRoots) return defaultRoots;
  const withDefaults = tls as { getCACertificates?: (type: 'default') => string[] };
  // Node 22.15 and later say what their default store holds (bundled, extra, system); older ones do not.
  if (typeof withDefaults.getCACertificates === 'function')
    return (defaultRoots = withDefaults.getCACertificates('default'));
  const roots = [...tls.rootCertificates];
  const extra = process.env.NODE_EXTRA_CA_CERTS;
  if (extra) {
    try {
      roots.push(readFileSync(extra, 'utf8'));
    } catch {
      // Node warned about the file at start-up and trusts none of it either.
    }
  }
  return (defaultRoots = roots);
}

/** The CA certificates of TLS options, as a list. */
function caListOf({ ca }: EndSystemTlsOptions): (string | Buffer)[] {
  if (ca === undefined) return [];
  return typeof ca === 'string' || Buffer.isBuffer(ca) ? [ca] : [...ca];
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g;

/**
 * Checks that a `ca` entry holds certificates: Node takes anything else without a word and trusts nothing
 * more, so a file's path given instead of its contents would fail every call with a certificate error.
 */
function checkCertificates(entry: string | Buffer, index: number): void {
  const blocks = entry.toString().match(PEM_CERTIFICATE) ?? [];
  const which = `tls.ca${index === 0 ? '' : `[${index}]`}`;
  if (blocks.length === 0)
    throw new TypeError(
      `${which} holds no PEM certificate ("-----BEGIN CERTIFICATE-----"): give the file's contents, not its path`,
    );
  for (const block of blocks) {
    try {
      new X509Certificate(block);
    } catch (error) {
      throw new TypeError(`${which} holds a certificate that cannot be read`, { cause: error });
    }
  }
}

/**
 * A secure context for the client's TLS options, made once per agent: handing `ca` to every connection would
 * parse every root certificate again for each. With `withClientCertificate` false, the CA only (for a proxy).
 *
 * @throws TypeError when the options contradict each other, or a certificate or key cannot be loaded
 * @internal
 */
export function secureContextOf(
  options: EndSystemTlsOptions,
  withClientCertificate: boolean,
): tls.SecureContext {
  const ca = caListOf(options);
  if (options.trustDefaultRoots === false && ca.length === 0)
    throw new TypeError('tls.trustDefaultRoots is false but tls.ca gives no CA to trust');
  ca.forEach(checkCertificates);
  if ((options.cert === undefined) !== (options.key === undefined))
    throw new TypeError('tls.cert and tls.key go together: give both or neither');
  try {
    return tls.createSecureContext({
      ...(ca.length === 0
        ? {}
        : { ca: options.trustDefaultRoots === false ? ca : [...defaultRootCertificates(), ...ca] }),
      ...(withClientCertificate && options.cert !== undefined
        ? { cert: options.cert, key: options.key, passphrase: options.passphrase }
        : {}),
    });
  } catch (error) {
    // OpenSSL's reason ("no start line", "bad decrypt", "key values mismatch") never quotes the PEM.
    const reason = ((error as Error).message.split('\n')[0] ?? '').slice(0, 160);
    throw new TypeError(`The end-system client's tls options could not be loaded: ${reason}`, {
      cause: error,
    });
  }
}

/** What the pool key knows of some TLS options: a digest, never the key or passphrase themselves. */
const tlsKeys = new WeakMap<EndSystemTlsOptions, string>();

/**
 * The digest of some TLS options for the pool key, computed once per options object.
 *
 * @internal
 */
export function tlsKeyOf(options: EndSystemTlsOptions): string {
  let key = tlsKeys.get(options);
  if (key === undefined) {
    const hash = createHash('sha256');
    const add = (part: string | Buffer | undefined) => {
      const bytes = part === undefined ? Buffer.alloc(0) : Buffer.from(part);
      hash.update(`${part === undefined ? '-' : bytes.length}:`).update(bytes);
    };
    for (const part of caListOf(options)) add(part);
    hash.update(options.trustDefaultRoots === false ? 'only' : 'also');
    for (const part of [options.cert, options.key, options.passphrase]) add(part);
    key = hash.digest('base64url');
    tlsKeys.set(options, key);
  }
  return key;
}
