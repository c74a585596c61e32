import { nodeCrypto } from '../../security/node-crypto.js';
import { hmacSha256 } from '../../security/hmac-sha256.js';
import { isIP, type BlockList } from 'node:net';
import { ConnectorError } from '../../errors/connector-error.js';
import { stackless } from '../../errors/stackless.js';
import { rangeList } from '../../security/egress/address-ranges.js';
import type { Redactor } from '../../security/redaction/redactor.js';

/**
 * The configuration entry that carries the access key: the platform user enters it as a field of the end
 * system's configuration (marked sensitive), and the connector compares it with its own before anything else.
 *
 * @example
 * ```ts
 * import { createHandler, type Connector } from '@connector-sdk/core';
 * declare const connector: Connector;
 * declare const accessKey: string; // from your secret store
 * // On the platform: a sensitive configuration field named "connectorAccessKey"
 * // (without the option, the key is read from CONNECTOR_SDK_ACCESS_KEY).
 * createHandler(connector, { accessKey });
 * ```
 */
export const ACCESS_KEY_ENTRY = 'connectorAccessKey';

/**
 * The environment variable the handler reads its access keys from when the `accessKey` option is absent: keys
 * separated by commas, for rotation.
 *
 * @example
 * ```ts
 * import { ACCESS_KEY_ENV } from '@connector-sdk/core';
 * // CONNECTOR_SDK_ACCESS_KEY="$(openssl rand -base64 24)" node dist/main.js
 * process.env[ACCESS_KEY_ENV] !== undefined;
 * ```
 */
export const ACCESS_KEY_ENV = 'CONNECTOR_SDK_ACCESS_KEY';

/** Fewest characters an access key may have: it is the only thing between a stranger and a login. */
const MIN_ACCESS_KEY_LENGTH = 16;

const wrongKey = () =>
  stackless(
    () =>
      new ConnectorError(
        'AUTHENTICATION_FAILED',
        `The connector's access key (configuration field '${ACCESS_KEY_ENTRY}') is missing or wrong`,
      ),
  );
const wrongSource = () =>
  stackless(
    () =>
      new ConnectorError(
        'SOURCE_NOT_ALLOWED',
        'This connector does not accept initialize from that network (initializeFrom)',
      ),
  );

/**
 * Who may initialize (ARCHITECTURE.md, D9): callers from the handler's `initializeFrom` networks, with the
 * access key when one is set. Initialize is the one call that needs no session, and it makes the connector log
 * in wherever the caller says, so a deployment that strangers can reach narrows it here. Keys are compared as
 * HMACs of a per-process random key, so the comparison takes the same time whatever the guess and whatever its
 * length.
 *
 * @internal
 */
export class InitializeAccess {
  readonly #from: BlockList | undefined;
  readonly #digests: readonly Buffer[];
  readonly #mac = hmacSha256(nodeCrypto().randomBytes(32));

  /** @throws TypeError when a network is not an address or CIDR range, or a key is too short */
  constructor(options: {
    readonly initializeFrom?: readonly string[] | undefined;
    readonly accessKey?: string | readonly string[] | undefined;
  }) {
    this.#from =
      // A network admits its own addresses only: not the IPv6 forms that embed them, which anyone can send from.
      options.initializeFrom === undefined ? undefined : rangeList(options.initializeFrom, false);
    const keys =
      typeof options.accessKey === 'string'
        ? options.accessKey.split(',').map((key) => key.trim())
        : (options.accessKey ?? []);
    for (const key of keys) {
      if (typeof key !== 'string' || key.length < MIN_ACCESS_KEY_LENGTH)
        throw new TypeError(
          `accessKey needs at least ${MIN_ACCESS_KEY_LENGTH} characters (openssl rand -base64 24)`,
        );
    }
    this.#digests = keys.map((key) => this.#digest(key));
  }

  /** Whether any check applies: without one, initialize costs nothing more. */
  get active(): boolean {
    return this.#from !== undefined || this.#digests.length > 0;
  }

  /** @throws ConnectorError `SOURCE_NOT_ALLOWED` for a caller outside `initializeFrom` */
  checkSource(remoteAddress: string | undefined): void {
    if (this.#from !== undefined && !this.listed(remoteAddress)) throw wrongSource();
  }

  /**
   * Whether `remoteAddress` is in one of the `initializeFrom` networks; `false` when none is set, and for an
   * address the binding cannot tell (the check fails closed).
   */
  listed(remoteAddress: string | undefined): boolean {
    if (this.#from === undefined) return false;
    const plain = remoteAddress?.replace(/^\[|\]$/g, '').replace(/%.*$/, '') ?? '';
    const family = isIP(plain);
    return family !== 0 && this.#from.check(plain, family === 4 ? 'ipv4' : 'ipv6');
  }

  /**
   * Takes the access key's entry out of an initialize body, registered as a secret whatever its `sensitive`
   * flag, and checks it.
   *
   * @returns the body without that entry, for the connector's own configuration
   * @throws ConnectorError `AUTHENTICATION_FAILED` when a key is set and the entry is missing or wrong
   */
  takeKey(body: unknown, redactor: Redactor): unknown {
    if (this.#digests.length === 0 || !Array.isArray(body)) return body;
    let given: unknown;
    const rest = body.filter((entry: unknown) => {
      const isKey =
        typeof entry === 'object' &&
        entry !== null &&
        (entry as { key?: unknown }).key === ACCESS_KEY_ENTRY;
      if (isKey) {
        given = (entry as { value?: unknown }).value;
        if (typeof given === 'string') redactor.add(given);
      }
      return !isKey;
    });
    const digest = this.#digest(typeof given === 'string' ? given : '');
    let match = false;
    for (const known of this.#digests) match = nodeCrypto().timingSafeEqual(known, digest) || match;
    if (!match) throw wrongKey();
    return rest;
  }

  #digest(key: string): Buffer {
    return this.#mac.bytes(key);
  }
}
