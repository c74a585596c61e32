import { describe, expect, it } from 'vitest';
import { defineConnector } from '../../connector/define-connector.js';
import { field } from '../../connector/field.js';
import { createHandler } from '../create-handler.js';
import { knownCallers } from './known-callers.js';

// The check a binding runs when only the places kept for known callers are left: a session this handler
// sealed, unchanged, or an address of an `initializeFrom` network.

const connector = defineConnector({
  name: 'known',
  version: '1.0.0',
  config: { user: field.string() },
  session: { 'X-User': field.string() },
  initialize: ({ config }) => ({ 'X-User': config.user }),
  operations: () => ({}),
});

async function sessionOf(handle: ReturnType<typeof createHandler>) {
  const answer = await handle({
    method: 'POST',
    path: '/sdk/api/1.0/initialize/s-1',
    query: { systemId: 'a' },
    headers: { 'content-type': 'application/json' },
    remoteAddress: '10.1.2.3',
    body: [{ key: 'user', value: 'ada', sensitive: false }],
  });
  expect(answer.status, String(answer.body)).toBe(200);
  const entries = JSON.parse(String(answer.body)) as { key: string; value: string }[];
  return Object.fromEntries(entries.map((entry) => [entry.key.toLowerCase(), entry.value]));
}

describe('known callers', () => {
  const handle = createHandler(connector, { initializeFrom: ['10.0.0.0/8'] });
  const known = knownCallers(handle);

  it('is there for every handler createHandler makes, and for nothing else', () => {
    expect(known).toBeTypeOf('function');
    expect(knownCallers(() => Promise.reject(new Error('not a handler')))).toBeUndefined();
  });

  it('knows a caller from an initializeFrom network, whatever it sends', () => {
    expect(known?.({}, '10.9.9.9')).toBe(true);
    expect(known?.({}, '::ffff:10.9.9.9')).toBe(true);
    expect(known?.({}, '11.0.0.1')).toBe(false);
    expect(known?.({}, undefined)).toBe(false);
  });

  it('knows a caller whose session this handler sealed, unchanged', async () => {
    const session = await sessionOf(handle);
    expect(known?.(session, '192.0.2.1')).toBe(true);
    expect(known?.({ ...session, 'x-user': 'eve' }, '192.0.2.1')).toBe(false);
    const mac = Object.keys(session).find((name) => name.endsWith('-mac')) as string;
    expect(known?.({ ...session, [mac]: `${session[mac]?.slice(0, -4)}AAAA` }, '192.0.2.1')).toBe(
      false,
    );
    expect(known?.({ ...session, [mac]: [session[mac] as string] }, '192.0.2.1')).toBe(false);
  });

  it('does not know a session another handler sealed with its own key', async () => {
    const other = createHandler(connector, {
      initializeFrom: ['10.0.0.0/8'],
      sessionKey: 'another-key-of-32-characters-or-more',
    });
    const session = await sessionOf(other);
    expect(known?.(session, '192.0.2.1')).toBe(false);
  });
});
