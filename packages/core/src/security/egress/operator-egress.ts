import {
  CompiledEgressPolicy,
  EGRESS_ALLOW_ENV,
  parseAllowList,
  type EgressPolicy,
} from './egress-policy.js';

/**
 * The operator's egress policy (ARCHITECTURE.md, D9): the handler's `egress` option, or else the hosts and
 * ranges of the `CONNECTOR_SDK_EGRESS_ALLOW` environment variable. It reaches the end-system client through the
 * logger connector code passes on (`context.log`), the way the request's secrets do, so no author has to thread
 * the operator's choice through their own code; a client made without that logger reads the environment itself.
 * A registry symbol, so two copies of the package (ESM and CJS) find each other's.
 */
/** @internal The symbol under which a request's logger carries the operator's policy. */
export const OPERATOR_EGRESS = Symbol.for('@connector-sdk/operator-egress');

/** @internal The operator's policy, checked, ready for the handler and for clients. */
export interface OperatorEgress {
  readonly policy: EgressPolicy;
  readonly compiled: CompiledEgressPolicy;
}

const environment = (name: string): string | undefined =>
  (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name];

let fromEnvironment:
  { readonly text: string | undefined; readonly egress: OperatorEgress } | undefined;

/**
 * The operator's policy: `option` when given, else the environment variable's, read now.
 *
 * @throws TypeError when an entry is not an address, CIDR range, host name or wildcard domain
 * @internal
 */
export function operatorEgress(option?: EgressPolicy): OperatorEgress {
  if (option !== undefined) return { policy: option, compiled: new CompiledEgressPolicy(option) };
  const text = environment(EGRESS_ALLOW_ENV);
  if (fromEnvironment === undefined || fromEnvironment.text !== text) {
    const policy = { allow: parseAllowList(text) };
    let compiled: CompiledEgressPolicy;
    try {
      compiled = new CompiledEgressPolicy(policy);
    } catch (error) {
      throw new TypeError(`${EGRESS_ALLOW_ENV}: ${(error as Error).message}`, { cause: error });
    }
    fromEnvironment = { text, egress: { policy, compiled } };
  }
  return fromEnvironment.egress;
}

/**
 * The operator's policy for a client made with `logger`: the handler's, when it is a request's logger, else
 * the environment's.
 *
 * @internal
 */
export function operatorEgressOf(logger: unknown): OperatorEgress {
  if (typeof logger === 'object' && logger !== null) {
    const linked = (logger as Record<symbol, unknown>)[OPERATOR_EGRESS];
    if (typeof linked === 'object' && linked !== null) return linked as OperatorEgress;
  }
  return operatorEgress();
}
