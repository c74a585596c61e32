import { createHash, X509Certificate } from 'node:crypto';
import { lookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { readFileSync } from 'node:fs';
import { isIP, type Socket } from 'node:net';
import * as tls from 'node:tls';
import type * as UndiciModule from 'undici';
import type { Agent, buildConnector, Dispatcher } from 'undici';
import {
  CompiledEgressPolicy,
  EgressRefusedError,
  egressPolicyKey,
  type EgressPolicy,
} from './egress-policy.js';
import type { EndSystemTlsOptions } from './end-system-client-options.js';

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A DNS lookup that leaves out the addresses the policy refuses, and fails naming the host when none is left.
 * It is the lookup the connection itself uses, so the address judged is the address connected to: a name that
 * resolves differently the second time (DNS rebinding) gains nothing.
 */
function checkedLookup(policy: CompiledEgressPolicy) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const allowed = addresses.filter((entry) => policy.refusal(entry.address) === undefined);
      const [first] = allowed;
      if (first === undefined) {
        const refused = addresses[0];
        const reason = refused && policy.refusal(refused.address);
        if (!refused || !reason)
          return callback(
            Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }),
            [],
          );
        return callback(
          new EgressRefusedError(
            hostname,
            refused.address,
            reason,
          ) as unknown as NodeJS.ErrnoException,
          [],
        );
      }
      if (options.all) callback(null, allowed);
      else callback(null, first.address, first.family);
    });
  };
}

/**
 * Judges the end system a proxy is asked to tunnel to, before the `CONNECT`: an address in the URL as it is,
 * a name by the connector's own lookup, refused when any address it resolves to is refused (the proxy may pick
 * any of them). A name the connector cannot resolve is left to the proxy, whose network often has the only DNS
 * that knows it. The proxy resolves the name again, so what it finally connects to is its own choice.
 */
function judgeTarget(
  policy: CompiledEgressPolicy,
  hostname: string,
  done: (refused: EgressRefusedError | undefined) => void,
): void {
  if (isIP(hostname.replace(/^\[|\]$/g, '')) !== 0) {
    const reason = policy.refusal(hostname);
    return done(reason && new EgressRefusedError(hostname, hostname, reason));
  }
  lookup(hostname, { all: true }, (error, addresses) => {
    if (error) return done(undefined);
    for (const { address } of addresses) {
      const reason = policy.refusal(address);
      if (reason) return done(new EgressRefusedError(hostname, address, reason));
    }
    done(undefined);
  });
}

type Undici = typeof UndiciModule;
type Connect = buildConnector.connector;

/**
 * undici, loaded on first use: importing it costs about 65 ms, which a connector that never calls an end system
 * (or not yet) should not pay at start-up. Clients start the load when they are made; calls wait for it.
 */
let undici: Promise<Undici> | undefined;

/** What the end-system client sends its requests to: an agent of undici's (fetch only calls `dispatch`). */
export type EndSystemDispatcher = Pick<Dispatcher, 'dispatch'>;

/** TLS options passed to undici's connector: the client's own secure context, when it has TLS options. */
type TlsConnectOptions = { readonly secureContext?: tls.SecureContext };

/** An undici agent whose every connection, redirects included, goes through the policy. */
function policedAgent(
  { Agent, buildConnector }: Undici,
  policy: CompiledEgressPolicy,
  tlsOptions: TlsConnectOptions,
): Agent {
  const connect = buildConnector({
    ...tlsOptions,
    lookup: checkedLookup(policy),
  } as buildConnector.BuildOptions);
  return new Agent({
    connect(options, callback) {
      const host = options.hostname;
      // An address in the URL is connected to without a lookup: it is judged here, before any byte is sent.
      if (isIP(host.replace(/^\[|\]$/g, '')) !== 0) {
        const reason = policy.refusal(host);
        if (reason) return callback(new EgressRefusedError(host, host, reason), null);
      }
      connect(options, (error, socket) => {
        if (error) return callback(error, null);
        // Belt and braces: the address the socket is connected to, whatever resolved it.
        const remote = (socket as Socket).remoteAddress;
        const reason = remote === undefined ? undefined : policy.refusal(remote);
        if (remote !== undefined && reason) {
          socket.destroy();
          return callback(new EgressRefusedError(host, remote, reason), null);
        }
        callback(null, socket);
      });
    },
  });
}

/**
 * An undici proxy agent that opens a `CONNECT` tunnel per connection (also to an `http://` end system: the
 * tunnel is where the end system can be judged) and judges the end system before each tunnel is asked for.
 * The tunnel's connector is undici's, wrapped through the `factory` undici hands it to, so a refusal fails
 * the connection the way a refused connection fails, redirects included.
 */
function policedProxy(
  { ProxyAgent, Pool }: Undici,
  policy: CompiledEgressPolicy,
  proxy: ProxyTarget,
  tlsOptions: TlsConnectOptions,
  proxyTlsOptions: TlsConnectOptions,
): EndSystemDispatcher {
  return new ProxyAgent({
    uri: proxy.href,
    proxyTunnel: true,
    requestTls: tlsOptions as buildConnector.BuildOptions,
    proxyTls: proxyTlsOptions as buildConnector.BuildOptions,
    factory(origin, options) {
      const tunnel = (options as { connect?: Connect }).connect;
      if (typeof tunnel !== 'function') {
        throw new TypeError('undici no longer gives its proxy tunnel to the factory');
      }
      const connect: Connect = (connectOptions, callback) =>
        judgeTarget(policy, connectOptions.hostname, (refused) =>
          refused ? callback(refused, null) : tunnel(connectOptions, callback),
        );
      return new Pool(origin, { ...options, connect });
    },
  });
}

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
 */
function secureContextOf(
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

function tlsKeyOf(options: EndSystemTlsOptions): string {
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

/** An outbound proxy, checked. */
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

/** How the client connects, besides where it may: see `EndSystemClientOptions`. */
export interface ConnectionOptions {
  readonly tls?: EndSystemTlsOptions | undefined;
  readonly proxy?: ProxyTarget | undefined;
}

/** Agents by policy, TLS options and proxy: clients are made per request, their connection pools are shared. */
const agents = new Map<string, Promise<EndSystemDispatcher>>();
/**
 * A connector has a handful of policies, TLS options and proxies. More at once (a CA per connection, from a
 * configuration field) works, but those that come back after sixteen others are made again, pool and trust
 * store included.
 */
const MAX_AGENTS = 16;

/**
 * The undici dispatcher that enforces `policy` for the end-system client, with its TLS options and proxy, once
 * undici is loaded. Agents are shared by clients whose policies judge alike and whose TLS options and proxy are
 * the same, and by no others: a CA, a client certificate or a proxy never reaches a client that did not ask for
 * it (nor does a TLS session resumed without the checks its CA made). Past {@link MAX_AGENTS} different keys,
 * the least recently used is forgotten.
 *
 * @throws TypeError, at once, when a range of the policy is not an address or CIDR range, or the TLS options
 * cannot be loaded
 * @internal
 */
export function egressDispatcher(
  policy: EgressPolicy = {},
  connection: ConnectionOptions = {},
): Promise<EndSystemDispatcher> {
  const { tls: tlsOptions, proxy } = connection;
  let key = egressPolicyKey(policy);
  if (tlsOptions) key += ` tls:${tlsKeyOf(tlsOptions)}`;
  if (proxy) key += ` proxy:${proxy.key}`;
  let agent = agents.get(key);
  if (agent !== undefined) {
    // Used last, forgotten last: an agent every request uses outlives sixteen made once (a CA per connection).
    agents.delete(key);
    agents.set(key, agent);
  } else {
    const compiled = new CompiledEgressPolicy(policy);
    // Made before the agent is cached, so options that cannot be loaded throw here, from the client's maker.
    const context = tlsOptions && secureContextOf(tlsOptions, true);
    const connectTls: TlsConnectOptions = context ? { secureContext: context } : {};
    const proxyTls: TlsConnectOptions =
      proxy?.tls && tlsOptions?.ca !== undefined
        ? { secureContext: secureContextOf(tlsOptions, false) }
        : {};
    agent = (undici ??= import('undici')).then((loaded) =>
      proxy
        ? policedProxy(loaded, compiled, proxy, connectTls, proxyTls)
        : policedAgent(loaded, compiled, connectTls),
    );
    // Awaited by the calls; a client made and never used must not leave an unhandled rejection.
    agent.catch(() => undefined);
    // The least recently used is forgotten, not closed: clients made with it may still be calling. Its idle
    // sockets do not keep the process alive, and it is collected with the last client that holds it.
    if (agents.size >= MAX_AGENTS) {
      const [oldest] = agents;
      if (oldest) agents.delete(oldest[0]);
    }
    agents.set(key, agent);
  }
  return agent;
}
