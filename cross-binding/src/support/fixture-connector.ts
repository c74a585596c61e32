import {
  EndSystemError,
  RateLimitedError,
  UnauthenticatedError,
  defineConnector,
  field,
  secret,
  z,
} from '@connector-sdk/core';

/** Values that must never reach a response body or a log line. */
export const SECRETS = { password: 'pa55-w0rd-xyzzy', token: 'tok-3f9a7c1e' };

/** Lets tests wait for a slow operation to start, and to see its signal fire. */
export const probes = { started: [] as (() => void)[], aborted: [] as (() => void)[] };

/** The connector every binding serves in the conformance suite. */
export const connector = defineConnector({
  name: 'conformance',
  version: '9.9.9',
  config: { url: field.url(), username: field.string(), password: field.secret() },
  session: { Authorization: field.secret(), 'X-End-Url': field.url() },
  initialize: ({ config }) => {
    if (config.password !== SECRETS.password) {
      throw new UnauthenticatedError(
        `Login failed for ${config.username} with ${config.password}`,
        {
          code: 'AUTHENTICATION_FAILED',
        },
      );
    }
    return { Authorization: secret(`Bearer ${SECRETS.token}`), 'X-End-Url': config.url };
  },
  operations: ({ get, post, delete: del }) => ({
    echo: post('/echo', { body: z.unknown() }, ({ body }) => ({ body })),
    removeItem: del('/items/:id', { status: 204 }, () => ({ ignored: true })),
    fileName: get('/file-name', { answerAs: 'text' }, () => 'Screen shot 1 – ü.png'),
    // An answer of the wrong shape: with validateAnswers it is a 500 naming the wrong value.
    typed: get('/typed', { answer: z.object({ id: z.string(), tags: z.array(z.string()) }) }, () =>
      JSON.parse('{"id":"A-1","tags":["x",7]}'),
    ),
    whoami: get('/whoami', ({ session }) => ({ url: session['X-End-Url'] })),
    item: get('/items/:id', ({ params }) => ({ id: params.id })),
    limited: get('/limited', () => {
      throw new RateLimitedError('The end system allows 10 calls a minute', {
        retryAfterMs: 12_000,
      });
    }),
    failing: get('/failing', ({ session }) => {
      throw new EndSystemError('The end system failed', {
        endSystemCode: 'ACME-503',
        detail: `upstream said: token ${session.Authorization} rejected`,
      });
    }),
    crashing: get('/crashing', ({ session }) => {
      throw new Error(`unexpected ${session.Authorization}`);
    }),
    slow: get('/slow', ({ signal }) => {
      for (const notify of probes.started.splice(0)) notify();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => resolve({ done: true }), 10_000);
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          for (const notify of probes.aborted.splice(0)) notify();
          reject(new Error('aborted'));
        });
      });
    }),
  }),
});

/** A valid configuration, as the platform sends it. */
export const configuration = [
  { key: 'url', value: 'https://end.example', sensitive: false },
  { key: 'username', value: 'alice', sensitive: false },
  { key: 'password', value: SECRETS.password, sensitive: true },
];
