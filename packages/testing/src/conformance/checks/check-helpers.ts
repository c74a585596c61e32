import type { ParameterEntry } from '@connector-sdk/core';
import type { PlatformSimulator } from '../../simulator/platform-simulator.js';
import type { ConformanceRun } from '../conformance-run.js';

/** One contract rule the kit checks. */
export interface ConformanceCheck {
  /** A stable id, such as `initialize.body.not-json`. */
  readonly id: string;
  /** What it proves, as a test title. */
  readonly name: string;
  /**
   * Runs the check; throws with what to fix when the connector breaks the rule.
   *
   * @returns a reason when the check does not apply to these options, or a note when it passed with part of
   * it not run (which part, and why)
   */
  run(
    run: ConformanceRun,
  ): Promise<{ readonly skipped: string } | { readonly note: string } | undefined>;
}

export const LET_SDK_PARSE =
  'Let the SDK read and validate the initialize body (defineConnector + a binding); do not parse it yourself.';

/** An entry no connector declares, so malformed bodies have an entry to break even with an empty config. */
export const PROBE: ParameterEntry = { key: 'conformance-probe', value: 'probe', sensitive: false };

/** Sends an initialize with a body exactly as given. */
export const initializeWith = (
  run: ConformanceRun,
  body: string,
  query: Readonly<Record<string, string>> = { systemId: 'system-1' },
) =>
  run.simulator().request({
    method: 'POST',
    path: '/initialize/conformance-session',
    query,
    headers: { 'content-type': 'application/json' },
    body,
    kind: 'initialize',
  });

/** The valid configuration's entries plus the probe entry. */
export const entriesWithProbe = (run: ConformanceRun): ParameterEntry[] => [
  ...run.simulator().config,
  PROBE,
];

/** A later call with these headers only: the operation under test, else cleanup. */
export function laterCall(run: ConformanceRun, headers: Readonly<Record<string, string>>) {
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

/** Initializes with the valid configuration and returns the session; fails when initialize does not. */
export async function validSession(
  run: ConformanceRun,
  platform: PlatformSimulator = run.simulator(),
): Promise<ParameterEntry[]> {
  const response = await platform.initialize();
  run.expectStatus(response, [200], {
    what: 'initialize with the valid configuration',
    fix: 'Check that the configuration in the test reaches a working end system.',
  });
  return [...(platform.session ?? [])];
}

export const headersOf = (entries: readonly ParameterEntry[]) =>
  Object.fromEntries(entries.map((entry) => [entry.key, entry.value]));

/** A wrong value of the same shape: keeps an auth scheme such as `Bearer `. */
export const garbage = (value: string) =>
  `${/^\S+ /.exec(value)?.[0] ?? ''}conformance-wrong-${Math.random().toString(36).slice(2, 10)}`;

/** Why a check of the connector's log lines cannot judge them, or `undefined` when the kit sees them. */
export function logsNotVisible(run: ConformanceRun): { readonly skipped: string } | undefined {
  return run.servesConnector || run.options.logLines !== undefined
    ? undefined
    : {
        skipped:
          "the connector's log lines are not visible here: pass --log-file <file> (CLI) or logLines (API)",
      };
}
