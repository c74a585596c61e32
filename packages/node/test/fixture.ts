import { defineConnector, field, secret, z } from '@connector-sdk/core';

/** Signals from the slow operation, so tests can watch aborts and in-flight requests. */
export const probes = {
  started: [] as (() => void)[],
  /** How many slow calls have started, ever. */
  startedCount: 0,
  aborted: [] as (() => void)[],
};

/** A small connector served over real HTTP by the node binding tests. */
export const connector = defineConnector({
  name: 'node-fixture',
  version: '0.1.0',
  config: { url: field.url(), password: field.secret() },
  session: { Authorization: field.secret(), 'X-Url': field.url() },
  initialize: ({ config }) => ({
    Authorization: secret(`Bearer ${config.password}-token`),
    'X-Url': config.url,
  }),
  operations: ({ get, post }) => ({
    echo: post('/echo', { body: z.unknown() }, ({ body, session }) => ({
      body,
      url: session['X-Url'],
    })),
    // `?pad=N` adds N characters to the answer, for answers that take a while to send.
    slow: get('/slow/:ms', ({ params, query, signal }) => {
      probes.startedCount++;
      for (const notify of probes.started.splice(0)) notify();
      const answer =
        typeof query.pad === 'string'
          ? { waited: Number(params.ms), padding: 'x'.repeat(Number(query.pad)) }
          : { waited: Number(params.ms) };
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => resolve(answer), Number(params.ms));
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          for (const notify of probes.aborted.splice(0)) notify();
          reject(new Error('aborted'));
        });
      });
    }),
  }),
});

export const entries = [
  { key: 'url', value: 'https://end.example', sensitive: false },
  { key: 'password', value: 'open-sesame', sensitive: true },
];
