import { ConnectorError, REDACTED, type Logger } from '@connector-sdk/core';
import { expect, it } from 'vitest';
import type { Exposure } from '../support/exposure.js';

/**
 * Connector code writing a text it saw in words of its own: a log line that nests it, and a 400 that quotes it in
 * the message (`refused …`) and the detail.
 */
export function refuseQuoting(shown: string, log: Logger, headers?: Record<string, string>): never {
  log.warn({ shown, nested: { list: [shown] } }, `connector saw ${shown}`);
  throw new ConnectorError('BAD_REQUEST', `refused ${shown}`, {
    detail: `the end system said: ${shown}`,
    ...(headers === undefined ? {} : { headers }),
  });
}

/** How a suite of secrets written in other forms is run. */
export interface EchoedForms<Name extends string> {
  /** Each secret by name, with each form it is written in. */
  readonly cases: readonly (readonly [Name, string])[];
  /** Makes the end system and connector code write the named secret in that form next. */
  echo(name: Name, form: string): void;
  /** Calls `call` (the end system writes it, answered 401) or `own` (connector code does, answered 400). */
  expose(path: 'call' | 'own'): Promise<Exposure>;
  /** What of the secret shows outside a `[REDACTED]` in what left the process. */
  leaksIn(shown: string): string[];
  /** Where connector code's own answer quotes it, for the test's name. */
  readonly ownPlaces: string;
  /** A text connector code's answer shows besides: the secret's neighbours are not blanked. */
  readonly ownShows: string;
}

/** The two tests each secret in each form takes: written by the end system, and by connector code. */
export function itRedactsEchoedForms<Name extends string>(suite: EchoedForms<Name>): void {
  it.each(suite.cases)(
    'redacts %s written %s by the end system, in the answer and every log line',
    async (name, form) => {
      suite.echo(name, form);
      const { status, shown } = await suite.expose('call');
      expect(status).toBe(401);
      expect(shown).toContain(REDACTED);
      expect(suite.leaksIn(shown)).toEqual([]);
    },
  );

  it.each(suite.cases)(
    `redacts %s written %s by connector code, in ${suite.ownPlaces}`,
    async (name, form) => {
      suite.echo(name, form);
      const { status, shown } = await suite.expose('own');
      expect(status).toBe(400);
      expect(shown).toContain(suite.ownShows);
      expect(suite.leaksIn(shown)).toEqual([]);
    },
  );
}
