import { ConformanceFailure } from '../conformance-failure.js';
import {
  LET_SDK_PARSE,
  PROBE,
  entriesWithProbe,
  initializeWith,
  validSession,
  type ConformanceCheck,
} from './check-helpers.js';
import type { ConformanceRun } from '../conformance-run.js';

function malformedBody(
  id: string,
  what: string,
  body: (run: ConformanceRun) => unknown,
): ConformanceCheck {
  return {
    id: `initialize.body.${id}`,
    name: `initialize answers 400 to a body that is ${what}`,
    async run(run) {
      const value = body(run);
      const response = await initializeWith(
        run,
        typeof value === 'string' ? value : JSON.stringify(value),
      );
      run.expectStatus(response, [400], {
        what: `initialize with a body that is ${what}`,
        fix: LET_SDK_PARSE,
      });
      return undefined;
    },
  };
}

/** discover, and how initialize answers valid and malformed requests. */
export const initializeChecks: readonly ConformanceCheck[] = [
  {
    id: 'discover',
    name: "discover answers 200 with the connector's name and version",
    async run(run) {
      const response = await run.simulator().discover();
      run.expectStatus(response, [200], {
        what: 'GET discover',
        fix: 'Serve the connector through the SDK handler.',
      });
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
        if (response.status === 200) continue;
        // Only a connector that initializes without the flag fails because of it.
        const plain = await run.simulator().initialize();
        run.expectStatus(response, [200], {
          what: `initialize with suppressNotification "${flag ? 1 : 2}"`,
          fix:
            plain.status === 200
              ? 'The SDK takes suppressNotification out of the configuration; do not declare it as a field.'
              : `Initialize fails without suppressNotification too (${plain.status}${plain.code === undefined ? '' : ` ${plain.code}`}): check that the configuration in the test reaches a working end system.`,
        });
      }
      return undefined;
    },
  },
  {
    id: 'initialize.bad-suppress-notification',
    name: 'initialize answers 400 to a suppressNotification other than "1" or "2"',
    async run(run) {
      const body = [
        ...entriesWithProbe(run),
        { key: 'suppressNotification', value: '3', sensitive: false },
      ];
      const response = await initializeWith(run, JSON.stringify(body));
      run.expectStatus(response, [400], {
        what: 'initialize with suppressNotification "3"',
        fix: LET_SDK_PARSE,
      });
      return undefined;
    },
  },
  {
    id: 'initialize.missing-system-id',
    name: 'initialize answers 400 without a systemId',
    async run(run) {
      const response = await initializeWith(run, JSON.stringify(entriesWithProbe(run)), {});
      run.expectStatus(response, [400], {
        what: 'initialize without ?systemId=',
        fix: LET_SDK_PARSE,
      });
      return undefined;
    },
  },
  malformedBody('not-json', 'not JSON', () => '[{"key": "url",'),
  malformedBody('empty', 'empty', () => ''),
  malformedBody('object', 'a JSON object instead of an array', () => '{"url": "x"}'),
  malformedBody('not-entries', 'an array of numbers', () => '[1, 2]'),
  malformedBody('missing-sensitive', 'an entry without "sensitive"', (run) =>
    entriesWithProbe(run).map(({ key, value }) => ({ key, value })),
  ),
  malformedBody('value-not-string', 'an entry whose value is a number', (run) => [
    ...entriesWithProbe(run),
    { key: 'conformance-number', value: 42, sensitive: false },
  ]),
  malformedBody('sensitive-not-boolean', 'an entry whose sensitive is a string', (run) =>
    entriesWithProbe(run).map((entry) => ({ ...entry, sensitive: String(entry.sensitive) })),
  ),
  malformedBody('duplicate-keys', 'two entries with the same key', (run) => [
    ...entriesWithProbe(run),
    PROBE,
  ]),
  {
    id: 'initialize.invalid-config',
    name: 'initialize answers 400 to an invalid configuration',
    async run(run) {
      if (run.options.invalidConfig === undefined) return { skipped: 'no invalidConfig given' };
      const response = await run.simulator(run.options.invalidConfig).initialize();
      run.expectStatus(response, [400], {
        what: 'initialize with the invalid configuration',
        fix: 'Declare each config field with a schema that rejects bad values (field.url(), field.json(schema), …).',
      });
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
      run.expectStatus(response, [401], {
        what: 'initialize with wrong credentials',
        fix: "Map the end system's login refusal to AUTHENTICATION_FAILED: a rule of the end-system client (errors.rules, for the status it answers) or an UnauthenticatedError.",
      });
      return undefined;
    },
  },
];
