import { createHash } from 'node:crypto';

/**
 * An outbound proxy, checked.
 *
 * @internal
 */
export interface ProxyTarget {
  /** The URL as undici takes it, credentials included. */
  readonly href: string;
  /** Scheme, host and port, never the credentials: what log lines and error details say. */
  readonly origin: string;
  /** Spoken to over TLS. */
  readonly tls: boolean;
  /** The forms the proxy's credentials take on the wire, for the request's redactor. */
  readonly secrets: readonly string[];
  /** A digest of the URL, for the pool key. */
  readonly key: string;
}

/** The last proxy checked: a connector has one, and clients are made per request. */
let lastProxy: { readonly input: string; readonly target: ProxyTarget } | undefined;

/**
 * Checks the `proxy` option of a client. Errors never quote the URL, which may hold credentials.
 *
 * @throws TypeError when it is not an `http:` or `https:` URL, has a user name without a password, or
 * credentials that are not validly percent-encoded
 * @internal
 */
export function proxyTarget(proxy: string | URL): ProxyTarget {
  const input = typeof proxy === 'string' ? proxy : proxy.href;
  if (lastProxy?.input === input) return lastProxy.target;
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new TypeError("The end-system client's proxy is not an absolute URL");
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError("The end-system client's proxy must be an http:// or https:// URL");
  if (url.username !== '' && url.password === '')
    throw new TypeError(
      "The end-system client's proxy URL has a user name but no password: give both, as user:password@",
    );
  const secrets: string[] = [];
  if (url.password !== '') {
    let user: string;
    let password: string;
    try {
      user = decodeURIComponent(url.username);
      password = decodeURIComponent(url.password);
    } catch {
      throw new TypeError(
        "The end-system client's proxy credentials are not validly percent-encoded",
      );
    }
    // undici sends `Proxy-Authorization: Basic base64(user:password)`.
    const basic = Buffer.from(`${user}:${password}`).toString('base64');
    secrets.push(password, url.password, basic, user, url.username);
  }
  const target: ProxyTarget = {
    href: url.href,
    origin: url.origin,
    tls: url.protocol === 'https:',
    secrets: [...new Set(secrets)],
    key: createHash('sha256').update(url.href).digest('base64url'),
  };
  lastProxy = { input, target };
  return target;
}
