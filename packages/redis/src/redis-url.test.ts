import { expect, it } from 'vitest';
import { connectRedisStore } from './index.js';
import { parseRedisUrl } from './redis-url.js';

it('leaves one-node URLs to node-redis', () => {
  expect(parseRedisUrl('redis://:pw@h:1/2')).toEqual({ kind: 'node', url: 'redis://:pw@h:1/2' });
  expect(parseRedisUrl('rediss://h')).toEqual({ kind: 'node', url: 'rediss://h' });
});

it('reads a Cluster: seed nodes, credentials, TLS', () => {
  expect(parseRedisUrl('redis+cluster://u:p%40ss@10.0.0.1:7000,10.0.0.2,[::1]:7002')).toEqual({
    kind: 'cluster',
    nodes: [
      { host: '10.0.0.1', port: 7000 },
      { host: '10.0.0.2', port: 6379 },
      { host: '::1', port: 7002 },
    ],
    tls: false,
    username: 'u',
    password: 'p@ss',
  });
  expect(parseRedisUrl('rediss+cluster://:pw@h:1')).toMatchObject({ tls: true, password: 'pw' });
});

it('reads Sentinel: sentinels on 26379 by default, master name, database', () => {
  expect(parseRedisUrl('redis+sentinel://s1,s2:5000/my%20primary/3')).toEqual({
    kind: 'sentinel',
    sentinels: [
      { host: 's1', port: 26379 },
      { host: 's2', port: 5000 },
    ],
    masterName: 'my primary',
    database: 3,
    tls: false,
  });
});

it('says what is wrong without quoting the URL and its password', () => {
  for (const url of [
    'http://:secret-1@h',
    'redis+sentinel://:secret-1@h:1',
    'redis+sentinel://:secret-1@h:1/name/x',
    'redis+cluster://:secret-1@h:1/0',
    'redis+cluster://:secret-1@h:99999',
  ]) {
    expect(() => parseRedisUrl(url)).toThrow(TypeError);
    expect(() => parseRedisUrl(url)).not.toThrow(/secret-1/);
  }
});

/** Every string an error carries: its own properties, message and stack, down its cause chain. */
function everythingIn(error: unknown, seen = new Set<unknown>()): string {
  if (typeof error !== 'object' || error === null || seen.has(error)) return String(error);
  seen.add(error);
  const own = Object.getOwnPropertyNames(error).map((name) => {
    const value = (error as Record<string, unknown>)[name];
    return typeof value === 'object' && value !== null
      ? everythingIn(value, seen)
      : `${name}=${String(value)}`;
  });
  const { message, stack, cause } = error as Error;
  return [...own, message, stack, cause === undefined ? '' : everythingIn(cause, seen)].join('\n');
}

it('refuses a malformed one-node URL without its password anywhere in the error', async () => {
  for (const url of [
    'redis://u:S3cretPw@ho st:6379',
    'redis://u:S3cretPw@[::1:6379',
    'redis://u:S3cretPw@host:99999',
    'rediss://u:S3cretPw@host:abc',
  ]) {
    const thrown = await connectRedisStore({ url, connectTimeoutMs: 200 }).then(
      async (store) => {
        await store.close();
        return undefined;
      },
      (error: unknown) => error,
    );
    expect(thrown, url).toBeInstanceOf(TypeError);
    expect(everythingIn(thrown), url).not.toMatch(/S3cretPw/);
  }
});
