import { rootCertificates } from 'node:tls';
import { describe, expect, it } from 'vitest';
import { egressDispatcher, proxyTarget } from './egress-dispatcher.js';

// Which clients share a connection pool: the dispatcher is cached by policy, TLS options and proxy. What a
// real connection does (a CA or a proxy not reaching another client) is in end-system-tls.test.ts and
// end-system-proxy.test.ts; this is the cache itself.
const CA = rootCertificates[0] ?? '';

describe('the pool cache', () => {
  it('shares a pool between clients whose policy, tls and proxy are alike, and no other', () => {
    const policy = { refuse: ['192.0.2.1'] };
    const plain = egressDispatcher(policy);
    expect(egressDispatcher({ refuse: ['192.0.2.1'] })).toBe(plain);

    const withCa = egressDispatcher(policy, { tls: { ca: CA } });
    expect(withCa).not.toBe(plain);
    // Alike by content, not by object.
    expect(egressDispatcher(policy, { tls: { ca: CA } })).toBe(withCa);
    expect(egressDispatcher(policy, { tls: { ca: CA, trustDefaultRoots: false } })).not.toBe(
      withCa,
    );

    const viaProxy = egressDispatcher(policy, {
      proxy: proxyTarget('http://user:pa55-w0rd@127.0.0.1:3128'),
    });
    expect(viaProxy).not.toBe(plain);
    expect(
      egressDispatcher(policy, {
        proxy: proxyTarget(new URL('http://user:pa55-w0rd@127.0.0.1:3128')),
      }),
    ).toBe(viaProxy);
    expect(
      egressDispatcher(policy, { proxy: proxyTarget('http://user:other-pa55@127.0.0.1:3128') }),
    ).not.toBe(viaProxy);
  });

  it('forgets the least recently used past sixteen, never one still in use', () => {
    const tls = { ca: CA };
    const inUse = egressDispatcher({}, { tls });
    const once = egressDispatcher({ refuse: ['203.0.113.99'] });
    for (let i = 0; i < 32; i++) {
      egressDispatcher({ refuse: [`198.51.100.${i}`] });
      expect(egressDispatcher({}, { tls })).toBe(inUse);
    }
    expect(egressDispatcher({ refuse: ['203.0.113.99'] })).not.toBe(once);
  });
});
