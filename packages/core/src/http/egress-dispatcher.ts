import { lookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP, type Socket } from 'node:net';
import type * as UndiciModule from 'undici';
import type { Agent, buildConnector } from 'undici';
import {
  CompiledEgressPolicy,
  EgressRefusedError,
  egressPolicyKey,
  type EgressPolicy,
} from './egress-policy.js';

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

/** An undici agent whose every connection, redirects included, goes through the policy. */
function policedAgent({ Agent, buildConnector }: Undici, policy: CompiledEgressPolicy): Agent {
  const connect = buildConnector({ lookup: checkedLookup(policy) } as buildConnector.BuildOptions);
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

/** Agents by policy: clients are made per request, their connection pools are shared. */
const agents = new Map<string, Promise<Agent>>();
/** Policies differ in a handful of ways in a connector; more than this many at once is a bug, not a need. */
const MAX_AGENTS = 16;

/**
 * The undici dispatcher that enforces `policy` for the end-system client, once undici is loaded. Agents are
 * shared by policies that judge alike; past {@link MAX_AGENTS} different policies, the oldest is forgotten.
 *
 * @throws TypeError, at once, when a range of the policy is not an address or CIDR range
 * @internal
 */
export function egressDispatcher(policy: EgressPolicy = {}): Promise<Agent> {
  const key = egressPolicyKey(policy);
  let agent = agents.get(key);
  if (agent === undefined) {
    const compiled = new CompiledEgressPolicy(policy);
    agent = (undici ??= import('undici')).then((loaded) => policedAgent(loaded, compiled));
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
