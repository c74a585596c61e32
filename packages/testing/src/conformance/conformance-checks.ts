import { ParameterListSchema, type ParameterEntry } from '@connector-sdk/core';
import { readWaitMs } from '../contract-rules.js';
import type { SimulatorResponse } from '../platform-simulator.js';
import { SecretSet } from '../secret-forms.js';
import { ConformanceFailure, expectStatus, type ConformanceRun } from './conformance-run.js';

/** One contract rule the kit checks. */
export interface ConformanceCheck {
  /** A stable id, such as `initialize.body.not-json`. */
  readonly id: string;
  /** What it proves, as a test title. */
  readonly name: string;
  /**
   * Runs the check; throws with what to fix when the connector breaks the rule.
   *
   * @returns a reason when the check does not apply to these options
   */
  run(run: ConformanceRun): Promise<{ readonly skipped: string } | undefined>;
}

const LET_SDK_PARSE =
  'Let the SDK read and validate the initialize body (defineConnector + a binding); do not parse it yourself.';

const initialize = (run: ConformanceRun, body: string, query = { systemId: 'system-1' }) =>
  run.simulator().request({
    method: 'POST',
    path: '/initialize/conformance-session',
    query,
    headers: { 'content-type': 'application/json' },
    body,
    kind: 'initialize',
  });

function entryList(run: ConformanceRun): ParameterEntry[] {
  return [...run.simulator().config];
}

/** A later call without any session: the operation under test, else cleanup. */
function laterCall(run: ConformanceRun, headers: Readonly<Record<string, string>>) {
  const { operation } = run.options;
  return run.simulator().request({
    method: operation?.method ?? (operation === undefined ? 'POST' : 'GET'),
    path: operation?.path ?? '/cleanup/conformance-session',
    query: operation?.query ?? { systemId: 'system-1' },
    headers: {
      ...(operation?.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(operation?.body === undefined ? {} : { body: JSON.stringify(operation.body) }),
  });
}

function malformedBody(
  id: string,
  what: string,
  body: (run: ConformanceRun) => string,
): ConformanceCheck {
  return {
    id: `initialize.body.${id}`,
    name: `initialize answers 400 to a body that is ${what}`,
    async run(run) {
      const response = await initialize(run, body(run));
      expectStatus(response, [400], `initialize with a body that is ${what}`, LET_SDK_PARSE);
      return undefined;
    },
  };
}

async function validSession(
  run: ConformanceRun,
  platform = run.simulator(),
): Promise<ParameterEntry[]> {
  const response = await platform.initialize();
  expectStatus(
    response,
    [200],
    'initialize with the valid configuration',
    'Check that the configuration in the test reaches a working end system.',
  );
  return [...(platform.session ?? [])];
}

const headersOf = (entries: readonly ParameterEntry[]) =>
  Object.fromEntries(entries.map((entry) => [entry.key, entry.value]));

/** A wrong value of the same shape: keeps an auth scheme such as `Bearer `. */
const garbage = (value: string) =>
  `${/^\S+ /.exec(value)?.[0] ?? ''}conformance-wrong-${Math.random().toString(36).slice(2, 10)}`;

function findLeaks(run: ConformanceRun): string[] {
  const secrets = new SecretSet();
  const config = run.simulator().config;
  secrets.addCompanions(config.filter((entry) => !entry.sensitive).map((entry) => entry.value));
  for (const input of [
    run.options.config,
    run.options.invalidConfig,
    run.options.wrongCredentials,
  ]) {
    if (input === undefined) continue;
    for (const entry of run.simulator(input).config) if (entry.sensitive) secrets.add(entry.value);
  }
  const answers = run.exchanges.map(({ request, response }) => ({
    request,
    response,
    list:
      response.status === 200 ? ParameterListSchema.safeParse(safeJson(response.text)) : undefined,
  }));
  for (const { list } of answers)
    if (list?.success === true)
      for (const entry of list.data) if (entry.sensitive) secrets.add(entry.value);
  const leaks: string[] = [];
  for (const { request, response, list } of answers) {
    // A successful initialize carries the session's secrets by design, in entries marked sensitive.
    const visible =
      list?.success === true
        ? list.data.filter((entry) => !entry.sensitive).map((entry) => entry.value)
        : [response.text];
    for (const text of [...visible, ...Object.values(response.headers)]) {
      if (secrets.leaksIn(text)) {
        leaks.push(`the answer to ${request.method} ${request.path} (${response.status})`);
        break;
      }
    }
  }
  run.logLines().forEach((line, index) => {
    if (secrets.leaksIn(line))
      leaks.push(`log line ${index + 1}: ${secrets.mask(line).slice(0, 200)}`);
  });
  return leaks;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Every check of the conformance kit, in the order they run.
 *
 * @internal
 */
export const conformanceChecks: readonly ConformanceCheck[] = [
  {
    id: 'discover',
    name: "discover answers 200 with the connector's name and version",
    async run(run) {
      const response = await run.simulator().discover();
      expectStatus(response, [200], 'GET discover', 'Serve the connector through the SDK handler.');
      const body = response.body as { connectorName?: unknown; connectorVersion?: unknown };
      if (typeof body.connectorName !== 'string' || typeof body.connectorVersion !== 'string')
        throw new ConformanceFailure(
          'discover must answer { connectorName, connectorVersion } as strings.',
        );
      return undefined;
    },
  },
  {
    id: 'initialize.valid',
    name: 'initialize answers 200 with header-safe session entries, credentials marked sensitive',
    async run(run) {
      await validSession(run);
      return undefined;
    },
  },
  {
    id: 'initialize.suppress-notification',
    name: 'initialize accepts suppressNotification "1" and "2"',
    async run(run) {
      for (const flag of [true, false]) {
        const response = await run
          .simulator(undefined, { suppressNotification: flag })
          .initialize();
        expectStatus(
          response,
          [200],
          `initialize with suppressNotification "${flag ? 1 : 2}"`,
          'The SDK takes suppressNotification out of the configuration; do not declare it as a field.',
        );
      }
      return undefined;
    },
  },
  {
    id: 'initialize.bad-suppress-notification',
    name: 'initialize answers 400 to a suppressNotification other than "1" or "2"',
    async run(run) {
      const body = [
        ...entryList(run),
        { key: 'suppressNotification', value: '3', sensitive: false },
      ];
      const response = await initialize(run, JSON.stringify(body));
      expectStatus(response, [400], 'initialize with suppressNotification "3"', LET_SDK_PARSE);
      return undefined;
    },
  },
  {
    id: 'initialize.missing-system-id',
    name: 'initialize answers 400 without a systemId',
    async run(run) {
      const response = await initialize(run, JSON.stringify(entryList(run)), {} as never);
      expectStatus(response, [400], 'initialize without ?systemId=', LET_SDK_PARSE);
      return undefined;
    },
  },
  malformedBody('not-json', 'not JSON', () => '[{"key": "url",'),
  malformedBody('empty', 'empty', () => ''),
  malformedBody('object', 'a JSON object instead of an array', () => '{"url": "x"}'),
  malformedBody('not-entries', 'an array of numbers', () => '[1, 2]'),
  malformedBody('missing-sensitive', 'an entry without "sensitive"', (run) =>
    JSON.stringify(entryList(run).map(({ key, value }) => ({ key, value }))),
  ),
  malformedBody('value-not-string', 'an entry whose value is a number', (run) =>
    JSON.stringify([...entryList(run), { key: 'conformance', value: 42, sensitive: false }]),
  ),
  malformedBody('sensitive-not-boolean', 'an entry whose sensitive is a string', (run) =>
    JSON.stringify(
      entryList(run).map((entry) => ({ ...entry, sensitive: String(entry.sensitive) })),
    ),
  ),
  malformedBody('duplicate-keys', 'two entries with the same key', (run) => {
    const entries = entryList(run);
    return JSON.stringify([...entries, ...entries.slice(0, 1)]);
  }),
  {
    id: 'initialize.invalid-config',
    name: 'initialize answers 400 to an invalid configuration',
    async run(run) {
      if (run.options.invalidConfig === undefined) return { skipped: 'no invalidConfig given' };
      const response = await run.simulator(run.options.invalidConfig).initialize();
      expectStatus(
        response,
        [400],
        'initialize with the invalid configuration',
        'Declare each config field with a schema that rejects bad values (field.url(), field.json(schema), …).',
      );
      return undefined;
    },
  },
  {
    id: 'initialize.wrong-credentials',
    name: 'initialize answers 401 when the end system refuses the credentials',
    async run(run) {
      if (run.options.wrongCredentials === undefined)
        return { skipped: 'no wrongCredentials given' };
      const response = await run.simulator(run.options.wrongCredentials).initialize();
      expectStatus(
        response,
        [401],
        'initialize with wrong credentials',
        "Map the end system's login refusal to UnauthenticatedError (code AUTHENTICATION_FAILED).",
      );
      return undefined;
    },
  },
  {
    id: 'session.missing',
    name: 'a later call without session headers answers 401',
    async run(run) {
      const response = await laterCall(run, {});
      expectStatus(
        response,
        [401],
        'a later call without session headers',
        'Declare every header the operations need in `session`, so the SDK rejects calls without them.',
      );
      return undefined;
    },
  },
  {
    id: 'session.wrong-credential',
    name: 'a later call with a wrong credential answers 401, so the platform initializes again',
    async run(run) {
      if (run.options.operation === undefined) return { skipped: 'no operation given' };
      const session = await validSession(run);
      const wrong = session.map((entry) =>
        entry.sensitive ? { ...entry, value: garbage(entry.value) } : entry,
      );
      const response = await laterCall(run, headersOf(wrong));
      expectStatus(
        response,
        [401],
        'the operation with a wrong credential in the session',
        "Map the end system's 'unauthorized' answer to a 401 (UnauthenticatedError, or the end-system client's default rules).",
      );
      return undefined;
    },
  },
  {
    id: 'operation',
    name: 'the later operation succeeds with the session',
    async run(run) {
      const { operation } = run.options;
      if (operation === undefined) return { skipped: 'no operation given' };
      const response = await run.simulator().call(operation);
      expectStatus(
        response,
        operation.expectStatus === undefined ? '2xx' : [operation.expectStatus],
        `${operation.method ?? 'GET'} ${operation.path} with a valid session`,
        'Check the operation and the end system it reaches.',
      );
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
        expectStatus(
          response,
          [200],
          `cleanup with cleanupGlobalCache=${cleanupGlobalCache}`,
          'cleanup should end the session and resolve; log failures of the end-system logout instead of throwing.',
        );
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
      expectStatus(response, [404], 'GET an unknown route', 'Let the SDK route requests.');
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
      expectStatus(
        response,
        [404],
        'GET discover under version 9.9',
        'Let the SDK route requests.',
      );
      return undefined;
    },
  },
  {
    id: 'rate-limit',
    name: 'a rate-limit 403 carries a whole-number wait header',
    async run(run) {
      if (!run.servesConnector)
        return { skipped: 'the kit can only set a rate limit on a connector it serves itself' };
      const transport = run.transportFor({
        ...run.options.handlerOptions,
        rateLimit: { limit: 1, windowMs: 60_000 },
      });
      const platform = run.simulator(undefined, {}, transport);
      await platform.initialize();
      const response = await platform.initialize();
      expectStatus(
        response,
        [403],
        'a second initialize over a limit of 1',
        'Keep the SDK rate limit.',
      );
      const header = run.options.retryAfterHeader ?? 'Retry-After';
      const waitMs = readWaitMs(response as SimulatorResponse, {
        name: header,
        unit: run.options.retryAfterUnit ?? 'seconds',
      });
      if (waitMs === undefined || waitMs <= 0)
        throw new ConformanceFailure(
          `the rate-limit 403 must announce a positive wait in ${header}`,
        );
      return undefined;
    },
  },
  {
    id: 'secrets.no-leak',
    name: 'no sensitive value, nor a derived form, appears in any response or log line',
    async run(run) {
      // Error paths that see the secrets, in case this check runs alone.
      await run.simulator().initialize();
      const config = entryList(run);
      await initialize(
        run,
        JSON.stringify([...config, ...config.filter((entry) => entry.sensitive)]),
      );
      await initialize(
        run,
        JSON.stringify(config.map((entry) => ({ ...entry, sensitive: 'yes' }))),
      );
      if (run.options.invalidConfig !== undefined)
        await run.simulator(run.options.invalidConfig).initialize();
      if (run.options.wrongCredentials !== undefined)
        await run.simulator(run.options.wrongCredentials).initialize();
      const leaks = findLeaks(run);
      if (leaks.length > 0) {
        throw new ConformanceFailure(
          `A secret (or its URL-encoded, JSON-escaped or base64 form) leaked in:\n  - ${leaks.join('\n  - ')}\n` +
            'Mark secrets with field.secret() / secret(), and never put a credential into an error message.',
        );
      }
      return undefined;
    },
  },
];
