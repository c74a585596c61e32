import { lookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import {
  EgressRefusedError,
  type CompiledEgressPolicy,
} from '../../security/egress/egress-policy.js';

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A DNS lookup that leaves out the addresses the policy refuses, and fails naming the host when none is left.
 * It is the lookup the connection itself uses, so the address judged is the address connected to: a name that
 * resolves differently the second time (DNS rebinding) gains nothing.
 *
 * @internal
 */
export function checkedLookup(policy: CompiledEgressPolicy) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const allowed = addresses.filter(
        (entry) => policy.refusal(entry.address, hostname) === undefined,
      );
      const [first] = allowed;
      if (first === undefined) {
        const refused = addresses[0];
        const reason = refused && policy.refusal(refused.address, hostname);
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
 *
 * @internal
 */
export function judgeTarget(
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
      const reason = policy.refusal(address, hostname);
      if (reason) return done(new EgressRefusedError(hostname, address, reason));
    }
    done(undefined);
  });
}
