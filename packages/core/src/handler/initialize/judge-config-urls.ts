import { isIP } from 'node:net';
import type { CompiledField } from '../../connector/compile-connector.js';
import { ConnectorError } from '../../errors/connector-error.js';
import type { Logger } from '../../logging/logger.js';
import {
  egressRefusalMessage,
  type CompiledEgressPolicy,
  type Refusal,
} from '../../security/egress/egress-policy.js';

/** Names that are loopback whatever DNS says (RFC 6761 §6.3): judged without a lookup. */
const LOCALHOST = /(?:^|\.)localhost$/;

/** The most URLs whose verdict is remembered, and the longest. */
const MAX_REMEMBERED = 256;
const MAX_REMEMBERED_LENGTH = 2_048;

/**
 * Judges the hosts of a configuration's `field.url()` values by the operator's egress policy, before connector
 * code runs (ARCHITECTURE.md, D9): whoever initializes chooses the URL, and a URL that names the connector's own
 * network is answered `400 END_SYSTEM_NOT_ALLOWED` instead of a login attempted there. An address, in any
 * spelling the URL parser reads (`http://2130706433/`, `[::ffff:127.0.0.1]`), is judged as it is, and
 * `localhost` names as loopback. A host name is left to the end-system client, which judges the addresses DNS
 * gives on every connection and refuses before a byte is sent (`502 END_SYSTEM_UNREACHABLE`, as for a name DNS
 * does not know). The answer never says which kind of address it is: that goes to the request's log.
 *
 * @internal
 */
export class ConfigUrlJudge {
  readonly #policy: CompiledEgressPolicy;
  readonly #fields: readonly CompiledField[];
  /** Verdicts by URL (they depend on nothing else): `null` for allowed. */
  readonly #known = new Map<string, Refusal | null>();

  constructor(policy: CompiledEgressPolicy, fields: readonly CompiledField[]) {
    this.#policy = policy;
    this.#fields = fields.filter((field) => field.url);
  }

  /** Whether the connector has URL fields to judge at all. */
  get active(): boolean {
    return this.#fields.length > 0;
  }

  /**
   * @param log - the request's logger: the reason (loopback, private…) is the operator's, never the caller's
   * @throws ConnectorError `END_SYSTEM_NOT_ALLOWED` naming the field and the host
   */
  judge(config: Readonly<Record<string, unknown>>, log: Logger): void {
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
      const reason = known ?? this.#refusal(host, value);
      if (reason === undefined) continue;
      log.warn(
        { endSystem: { field: field.key, host, error: 'END_SYSTEM_NOT_ALLOWED', reason } },
        'configured URL refused by the egress policy',
      );
      throw new ConnectorError(
        'END_SYSTEM_NOT_ALLOWED',
        `Configuration field '${field.key}': ${egressRefusalMessage(host)}`,
      );
    }
  }

  #refusal(host: string, value: string): Refusal | undefined {
    const policy = this.#policy;
    const plain = host.replace(/^\[|\]$/g, '');
    // A host name is left to the client, which judges the addresses DNS gives before it connects: a lookup here
    // would let any caller make the connector resolve names of its choosing (and wait seconds on those that
    // never answer) for a verdict that proves nothing, since a name may resolve elsewhere at connection time.
    // An allowed name still never opens metadata: the client's lookup refuses those addresses.
    let reason: Refusal | undefined;
    if (isIP(plain) !== 0) reason = policy.refusal(plain);
    else if (!policy.allowsHost(host) && LOCALHOST.test(host.toLowerCase().replace(/\.$/, '')))
      reason = policy.refusal('127.0.0.1');
    if (value.length <= MAX_REMEMBERED_LENGTH) {
      if (this.#known.size >= MAX_REMEMBERED) this.#known.clear();
      this.#known.set(value, reason ?? null);
    }
    return reason;
  }
}
