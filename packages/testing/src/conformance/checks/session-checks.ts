import { readWaitMs } from '../../simulator/contract-rules.js';
import type { ConformanceRun } from '../conformance-run.js';
import type { SimulatorResponse } from '../../simulator/simulator-types.js';
import { ConformanceFailure } from '../conformance-failure.js';
import {
  garbage,
  headersOf,
  laterCall,
  validSession,
  type ConformanceCheck,
} from './check-helpers.js';

/** One request of the foreign-id check, and why it is not sent when it would change nothing. */
interface Probe {
  readonly what: string;
  readonly expect: readonly number[];
  readonly unchanged?: string | undefined;
  readonly send: () => Promise<SimulatorResponse>;
}

const FOREIGN_FIX =
  'Take ids only from the verified session (the SDK does), never from the path, query or headers alone.';

/**
 * The operation with another `systemId` in its query. The platform puts no `systemId` on later operations, so
 * a connector may ignore one: for a connector the kit serves (the SDK checks the query against the session)
 * it must be refused; for one it does not serve, it must be refused or change nothing, judged against the same
 * call without it.
 *
 * @returns why it was not judged, or `undefined` when it was
 */
async function foreignSystemQuery(
  run: ConformanceRun,
  session: Readonly<Record<string, string>>,
): Promise<string | undefined> {
  const operation = run.options.operation;
  if (operation === undefined) return undefined;
  const platform = run.simulator();
  const what = 'the operation with another systemId in the query';
  const send = (systemId?: string) =>
    platform.request({
      method: operation.method ?? 'GET',
      path: operation.path,
      query: { ...operation.query, ...(systemId === undefined ? {} : { systemId }) },
      headers: {
        ...(operation.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...session,
      },
      ...(operation.body === undefined ? {} : { body: JSON.stringify(operation.body) }),
    });
  const foreign = await send('conformance-other-system');
  if (foreign.status === 400 || foreign.status === 401) return undefined;
  if (run.servesConnector) {
    run.expectStatus(foreign, [400, 401], { what, fix: FOREIGN_FIX });
    return undefined;
  }
  const own = operation.query?.systemId;
  const [first, second] = [await send(own), await send(own)];
  const same = (a: SimulatorResponse, b: SimulatorResponse) =>
    a.status === b.status && a.text === b.text;
  if (!same(first, second))
    return `${what} (the operation answers differently each time, so the kit cannot tell whether the systemId was ignored)`;
  if (!same(foreign, first))
    throw new ConformanceFailure(
      `${what} answered ${foreign.status}, and not what the same call answers without it: refuse it (400/401) or ignore it. ${FOREIGN_FIX}`,
    );
  return undefined;
}

/** Later calls: sessions, the operation, cleanup, routing and the rate limit. */
export const sessionChecks: readonly ConformanceCheck[] = [
  {
    id: 'session.missing',
    name: 'a later call without session headers answers 401',
    async run(run) {
      const session = await validSession(run);
      if (session.every((entry) => /^x-sdk-/i.test(entry.key)))
        return { skipped: 'the connector answers no session entries of its own' };
      const response = await laterCall(run, {});
      run.expectStatus(response, [401], {
        what: 'a later call without session headers',
        fix: 'Declare every header the operations need in `session`, so the SDK rejects calls without them.',
      });
      return undefined;
    },
  },
  {
    id: 'session.wrong-credential',
    name: 'a later call with a wrong credential answers 401, so the platform initializes again',
    async run(run) {
      if (run.options.operation === undefined) return { skipped: 'no operation given' };
      const session = await validSession(run);
      if (!session.some((entry) => entry.sensitive))
        return { skipped: 'the session has no sensitive entry to make wrong' };
      const wrong = session.map((entry) =>
        entry.sensitive ? { ...entry, value: garbage(entry.value) } : entry,
      );
      const response = await laterCall(run, headersOf(wrong));
      run.expectStatus(response, [401], {
        what: 'the operation with a wrong credential in the session',
        fix: "Map the end system's 'unauthorized' answer to a 401 (UnauthenticatedError, or the end-system client's default rules).",
      });
      return undefined;
    },
  },
  {
    id: 'session.tampered',
    name: 'a later call whose replayed session was changed answers 401, before any connector code',
    async run(run) {
      const session = await validSession(run);
      if (session.length === 0)
        return { skipped: 'initialize answered no session entry to change' };
      // Every entry initialize answered, changed in turn; a URL pointed elsewhere is the SSRF case.
      for (const target of session) {
        const changed = session.map((entry) =>
          entry === target
            ? {
                ...entry,
                value: /^https?:\/\//.test(entry.value)
                  ? 'http://169.254.169.254/latest'
                  : garbage(entry.value),
              }
            : entry,
        );
        const response = await laterCall(run, headersOf(changed));
        run.expectStatus(response, [401], {
          what: `a later call with the session entry '${target.key}' changed after initialize`,
          fix: 'Let the SDK answer the session (defineConnector + a binding): it signs every entry and refuses a changed one.',
        });
      }
      return undefined;
    },
  },
  {
    id: 'session.foreign-id',
    name: "a later call or cleanup naming another session's ids is refused (400/401), never served",
    async run(run) {
      const platform = run.simulator();
      const session = headersOf(await validSession(run, platform));
      const { operation } = run.options;
      const probes = [
        {
          what: 'cleanup of another session id with this session',
          expect: [400, 401],
          send: () =>
            platform.request({
              method: 'POST',
              path: '/cleanup/conformance-other-session',
              query: { systemId: platform.systemId, cleanupGlobalCache: 'true' },
              headers: session,
            }),
        },
        {
          what: 'cleanup of another system with this session',
          expect: [400, 401],
          send: () =>
            platform.request({
              method: 'POST',
              path: `/cleanup/${encodeURIComponent(platform.sdkSessionId)}`,
              query: { systemId: 'conformance-other-system', cleanupGlobalCache: 'true' },
              headers: session,
            }),
        },
        {
          what: 'a later call whose system id header names another system',
          expect: [401],
          // A connector written without the SDK may answer no such entry: the probe would change nothing.
          unchanged: Object.keys(session).some((name) => /^x-sdk-system-id$/i.test(name))
            ? undefined
            : 'the session has no X-Sdk-System-Id entry, so the probe would change nothing',
          send: () =>
            laterCall(
              run,
              Object.fromEntries(
                Object.entries(session).map(([name, value]) => [
                  name,
                  /^x-sdk-system-id$/i.test(name) ? 'conformance-other-system' : value,
                ]),
              ),
            ),
        },
      ];
      const notRun: string[] = [];
      for (const probe of probes as readonly Probe[]) {
        if (probe.unchanged !== undefined) {
          notRun.push(`${probe.what} (${probe.unchanged})`);
          continue;
        }
        run.expectStatus(await probe.send(), probe.expect, { what: probe.what, fix: FOREIGN_FIX });
      }
      if (operation !== undefined) {
        const skipped = await foreignSystemQuery(run, session);
        if (skipped !== undefined) notRun.push(skipped);
      }
      return notRun.length === 0 ? undefined : { note: `not run: ${notRun.join('; ')}` };
    },
  },
  {
    id: 'operation',
    name: 'the later operation succeeds with the session',
    async run(run) {
      const { operation } = run.options;
      if (operation === undefined) return { skipped: 'no operation given' };
      const response = await run.simulator().call(operation);
      run.expectStatus(
        response,
        operation.expectStatus === undefined ? '2xx' : [operation.expectStatus],
        {
          what: `${operation.method ?? 'GET'} ${operation.path} with a valid session`,
          fix: 'Check the operation and the end system it reaches.',
        },
      );
      return undefined;
    },
  },
  {
    id: 'session.expired',
    name: 'an expired session answers 401, and the call works once the platform initializes again',
    async run(run) {
      const { operation, expireSession } = run.options;
      if (operation === undefined) return { skipped: 'no operation given' };
      if (expireSession === undefined)
        return { skipped: 'no expireSession given to make the end system drop a session' };
      const platform = run.simulator();
      const session = await validSession(run, platform);
      const what = `${operation.method ?? 'GET'} ${operation.path}`;
      const expected = operation.expectStatus === undefined ? '2xx' : [operation.expectStatus];
      run.expectStatus(await platform.call(operation), expected, {
        what: `${what} before the session expired`,
        fix: 'Check the operation and the end system it reaches.',
      });
      await expireSession(session);
      const from = run.exchanges.length;
      // The platform's way: the call, a 401, initialize again, the call again.
      const response = await platform.call(operation);
      const statuses = run.exchanges
        .slice(from)
        .map(
          ({ request, response: answer }) =>
            `${/\/initialize\//.test(request.path) ? 'initialize' : 'call'} ${answer.status}`,
        );
      if (statuses[0] !== 'call 401')
        throw new ConformanceFailure(
          `${what} with an expired session answered ${statuses[0]?.replace('call ', '') ?? 'nothing'}; expected 401. ` +
            "Map the end system's 'session expired' answer to a 401 (SESSION_EXPIRED: the end-system client's default rules, or sessionExpired for an expiry reported in a 2xx).",
        );
      run.expectStatus(response, expected, {
        what: `${what} after initializing again`,
        fix: 'A new initialize must give a session the end system accepts again.',
      });
      return undefined;
    },
  },
  {
    id: 'cleanup',
    name: 'cleanup answers 200, with and without cleanupGlobalCache',
    async run(run) {
      for (const cleanupGlobalCache of [false, true]) {
        const platform = run.simulator();
        await validSession(run, platform);
        const response = await platform.cleanup({ cleanupGlobalCache });
        run.expectStatus(response, [200], {
          what: `cleanup with cleanupGlobalCache=${cleanupGlobalCache}`,
          fix: 'cleanup should end the session and resolve; log failures of the end-system logout instead of throwing.',
        });
      }
      return undefined;
    },
  },
  {
    id: 'route.unknown',
    name: 'an unknown route answers 404',
    async run(run) {
      const response = await run
        .simulator()
        .request({ method: 'GET', path: '/conformance/no-such-route' });
      run.expectStatus(response, [404], {
        what: 'GET an unknown route',
        fix: 'Let the SDK route requests.',
      });
      return undefined;
    },
  },
  {
    id: 'route.unknown-version',
    name: 'an unsupported API version answers 404',
    async run(run) {
      const prefix = (run.options.prefix ?? '/sdk/api').replace(/\/+$/, '');
      const response = await run
        .simulator()
        .request({ method: 'GET', path: `${prefix}/9.9/discover`, fromRoot: true });
      run.expectStatus(response, [404], {
        what: 'GET discover under version 9.9',
        fix: 'Let the SDK route requests.',
      });
      return undefined;
    },
  },
  {
    id: 'rate-limit',
    name: 'a rate-limit 403 carries a positive whole-number wait header',
    async run(run) {
      if (!run.servesConnector)
        return { skipped: 'the kit can only set a rate limit on a connector it serves itself' };
      const transport = run.transportFor({
        ...run.options.handlerOptions,
        rateLimit: { limit: 1, windowMs: 60_000 },
      });
      const platform = run.simulator(undefined, {}, transport);
      await platform.initialize();
      // The simulator itself fails on a malformed wait header; here the header must be there at all.
      const response = await platform.initialize();
      run.expectStatus(response, [403], {
        what: 'a second initialize over a limit of 1',
        fix: 'Keep the SDK rate limit.',
      });
      const header = run.options.retryAfterHeader ?? 'Retry-After';
      const unit = run.options.retryAfterUnit ?? 'seconds';
      if (readWaitMs(response, { name: header, unit }) === undefined)
        throw new ConformanceFailure(
          `the rate-limit 403 must announce its wait in ${header}, the header the platform reads`,
        );
      return undefined;
    },
  },
];
