import { isIP } from 'node:net';
import type { CompiledField } from '../connector/compile-connector.js';
import { ConnectorError } from '../errors/connector-error.js';
import {
  egressRefusalMessage,
  type CompiledEgressPolicy,
  type Refusal,
} from '../security/egress-policy.js';

/** Names that are loopback whatever DNS says (RFC 6761 §6.3): judged without a lookup. */
const LOCALHOST = /(?:^|\.)localhost$/;

/** The most URLs whose verdict is remembered (IP literals only: a name's addresses may change). */
const MAX_REMEMBERED = 256;
const MAX_REMEMBERED_LENGTH = 2_048;

/**
 * Judges the hosts of a configuration's `field.url()` values by the operator's egress policy, before connector
 * code runs (issue 31): whoever initializes chooses the URL, and a URL that names the connector's own network
 * is answered `400 END_SYSTEM_NOT_ALLOWED` instead of a login attempted there. An address is judged as it is,
 * `localhost` names as loopback, other names by the addresses DNS gives now (refused when none is allowed, as
 * the client's own lookup would); a name that does not resolve is left to the login, which fails on its own.
 * The client judges again on every connection, so a name that resolves elsewhere later gains nothing.
 *
 * @internal
 */
export class ConfigUrlJudge {
  readonly #policy: CompiledEgressPolicy;
  readonly #fields: readonly CompiledField[];
  /** Verdicts on URLs whose host is an address, by the URL: `null` for allowed. */
  readonly #known = new Map<string, Refusal | null>();

  constructor(policy: CompiledEgressPolicy, fields: readonly CompiledField[]) {
    this.#policy = policy;
    this.#fields = fields.filter((field) => field.url);
  }

  /** Whether the connector has URL fields to judge at all. */
  get active(): boolean {
    return this.#fields.length > 0;
  }

  /** @throws ConnectorError `END_SYSTEM_NOT_ALLOWED` naming the field and the host */
  async judge(config: Readonly<Record<string, unknown>>): Promise<void> {
    for (const field of this.#fields) {
      const value = config[field.key];
      if (typeof value !== 'string' || value === '') continue;
      const known = this.#known.get(value);
      if (known === null) continue;
      let host: string;
      try {
        host = new URL(value).hostname;
      } catch {
        continue;
      }
      const reason = known ?? (await this.#refusal(host, value));
      if (reason !== undefined)
        throw new ConnectorError(
          'END_SYSTEM_NOT_ALLOWED',
          `Configuration field '${field.key}': ${egressRefusalMessage(host, reason)}`,
        );
    }
  }

  async #refusal(host: string, value: string): Promise<Refusal | undefined> {
    const policy = this.#policy;
    const plain = host.replace(/^\[|\]$/g, '');
    if (isIP(plain) !== 0) {
      const reason = policy.refusal(plain);
      if (value.length <= MAX_REMEMBERED_LENGTH) {
        if (this.#known.size >= MAX_REMEMBERED) this.#known.clear();
        this.#known.set(value, reason ?? null);
      }
      return reason;
    }
    if (policy.allowsHost(host)) {
      // An allowed name still never opens metadata: the client's lookup refuses those addresses.
      return undefined;
    }
    if (LOCALHOST.test(host.toLowerCase().replace(/\.$/, ''))) return policy.refusal('127.0.0.1');
    const { lookup } = await import('node:dns/promises');
    let addresses: { address: string }[];
    try {
      addresses = await lookup(host, { all: true });
    } catch {
      return undefined;
    }
    let first: Refusal | undefined;
    for (const { address } of addresses) {
      const reason = policy.refusal(address, host);
      if (reason === undefined) return undefined;
      first ??= reason;
    }
    return first;
  }
}
