// The `request` tracing channel publishes its events in the order `TracingChannel.tracePromise` gives them
// (start, end, then error, asyncStart and asyncEnd), whether the call waited for anything or was answered in the
// turn it came in: a refusal, discover, or a handler that answers without a promise.
import { tracingChannel } from 'node:diagnostics_channel';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DIAGNOSTICS_CHANNELS,
  NotFoundError,
  createHandler,
  defineConnector,
  type ConnectorRequest,
} from '../index.js';
import { initializeSession } from '../../test/sessions.js';

const base = '/sdk/api/1.0';
const connector = defineConnector({
  name: 'traced',
  version: '1',
  config: {},
  session: {},
  initialize: () => ({}),
  operations: ({ get }) => ({
    plain: get('/plain', () => ({ ok: true })),
    later: get('/later', async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return { ok: true };
    }),
    missing: get('/missing', () => {
      throw new NotFoundError('No such thing');
    }),
  }),
});

const events: string[] = [];
const record = (name: string) => () => events.push(name);
const subscribers = {
  start: record('start'),
  end: record('end'),
  asyncStart: record('asyncStart'),
  asyncEnd: record('asyncEnd'),
  error: record('error'),
};
const channel = tracingChannel(DIAGNOSTICS_CHANNELS.request);
afterEach(() => channel.unsubscribe(subscribers));

describe('the request trace', () => {
  it('publishes start, end, then asyncStart and asyncEnd, for calls answered at once or later', async () => {
    const handle = createHandler(connector);
    const session = await initializeSession(handle);
    channel.subscribe(subscribers);
    const calls: [string, ConnectorRequest, string[]][] = [
      [
        'a handler answering at once',
        { method: 'GET', path: `${base}/plain`, headers: session },
        [],
      ],
      ['a handler answering later', { method: 'GET', path: `${base}/later`, headers: session }, []],
      [
        'a call without a session',
        { method: 'GET', path: `${base}/plain`, headers: {} },
        ['error'],
      ],
      ['discover', { method: 'GET', path: `${base}/discover`, headers: {} }, []],
      [
        'a handler throwing',
        { method: 'GET', path: `${base}/missing`, headers: session },
        ['error'],
      ],
    ];
    for (const [what, request, failed] of calls) {
      events.length = 0;
      await handle(request);
      expect(events, what).toEqual(['start', 'end', ...failed, 'asyncStart', 'asyncEnd']);
    }
  });
});
