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

type Undici = typeof UndiciModule;

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

/** How the client connects, besides where it may: see `EndSystemClientOptions`. */
export interface ConnectionOptions {
  readonly tls?: EndSystemTlsOptions | undefined;
}

/** Agents by policy and TLS options: clients are made per request, their connection pools are shared. */
const agents = new Map<string, Promise<EndSystemDispatcher>>();
/** Policies differ in a handful of ways in a connector; more than this many at once is a bug, not a need. */
const MAX_AGENTS = 16;

/**
 * The undici dispatcher that enforces `policy` for the end-system client, with its TLS options, once undici
 * is loaded. Agents are shared by clients whose policies judge alike and whose TLS options are the same, and by
 * no others: a CA or a client certificate never reaches a client that did not ask for it (nor does a TLS session resumed without the checks its CA made). Past {@link MAX_AGENTS} different keys,
 * the oldest is forgotten.
 *
 * @throws TypeError, at once, when a range of the policy is not an address or CIDR range, or the TLS options
 * cannot be loaded
 * @internal
 */
export function egressDispatcher(
  policy: EgressPolicy = {},
  connection: ConnectionOptions = {},
): Promise<EndSystemDispatcher> {
  const { tls: tlsOptions } = connection;
  let key = egressPolicyKey(policy);
  if (tlsOptions) key += ` tls:${tlsKeyOf(tlsOptions)}`;
  let agent = agents.get(key);
  if (agent === undefined) {
    const compiled = new CompiledEgressPolicy(policy);
    // Made before the agent is cached, so options that cannot be loaded throw here, from the client's maker.
    const context = tlsOptions && secureContextOf(tlsOptions, true);
    const connectTls: TlsConnectOptions = context ? { secureContext: context } : {};
    agent = (undici ??= import('undici')).then((loaded) =>
      policedAgent(loaded, compiled, connectTls),
    );
    // Awaited by the calls; a client made and never used must not leave an unhandled rejection.
    agent.catch(() => undefined);
    // The oldest is forgotten, not closed: clients made with it may still be calling. Its idle sockets do not
    // keep the process alive, and it is collected with the last client that holds it.
    if (agents.size >= MAX_AGENTS) {
      const [oldest] = agents;
      if (oldest) agents.delete(oldest[0]);
    }
    agents.set(key, agent);
  }
  return agent;
}
