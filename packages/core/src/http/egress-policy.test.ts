import { describe, expect, it } from 'vitest';
import { CompiledEgressPolicy, egressPolicyKey } from './egress-policy.js';

describe('the egress policy', () => {
  const byDefault = new CompiledEgressPolicy();

  it.each([
    ['169.254.169.254', 'a link-local or cloud-metadata address'],
    ['169.254.170.2', 'a link-local or cloud-metadata address'],
    ['::ffff:169.254.169.254', 'a link-local or cloud-metadata address'],
    ['64:ff9b::a9fe:a9fe', 'a link-local or cloud-metadata address'],
    ['::a9fe:a9fe', 'a link-local or cloud-metadata address'],
    ['::ffff:0:a9fe:a9fe', 'a link-local or cloud-metadata address'],
    ['2002:a9fe:a9fe::1', 'a link-local or cloud-metadata address'],
    ['fec0::1', 'a multicast or reserved address'],
    ['[fe80::1%eth0]', 'a link-local or cloud-metadata address'],
    ['FD00:EC2::254', 'a link-local or cloud-metadata address'],
    ['100.100.100.200', 'a link-local or cloud-metadata address'],
    ['239.1.2.3', 'a multicast or reserved address'],
    ['255.255.255.255', 'a multicast or reserved address'],
    ['ff02::1', 'a multicast or reserved address'],
    ['not-an-address', 'an address the policy refuses'],
  ])('refuses %s by default', (address, reason) => {
    expect(byDefault.refusal(address)).toBe(reason);
  });

  it.each([
    '127.0.0.1',
    '::1',
    '0.0.0.0',
    '10.0.0.1',
    '172.31.255.255',
    '192.168.1.1',
    'fd12::1',
    '8.8.8.8',
    '2606:4700::1111',
  ])(
    'allows %s by default (on-premises end systems live on loopback and private ranges)',
    (address) => {
      expect(byDefault.refusal(address)).toBeUndefined();
    },
  );

  it('refuses loopback and "this host" only when asked, private ranges likewise', () => {
    const loopback = new CompiledEgressPolicy({ refuseLoopback: true });
    expect(
      ['127.1.2.3', '::1', '0.0.0.0', '::', '::ffff:127.0.0.1'].map((a) => loopback.refusal(a)),
    ).toEqual(Array.from({ length: 5 }, () => 'a loopback address'));
    expect(loopback.refusal('10.0.0.1')).toBeUndefined();
    const lan = new CompiledEgressPolicy({ refusePrivate: true });
    expect(
      ['10.9.9.9', '172.16.0.1', '192.168.0.1', '100.64.0.1', 'fc00::1', '64:ff9b::a00:1'].map(
        (a) => lan.refusal(a),
      ),
    ).toEqual(Array.from({ length: 6 }, () => 'a private address'));
    expect(lan.refusal('172.32.0.1')).toBeUndefined();
    expect(lan.refusal('127.0.0.1')).toBeUndefined();
    // Metadata inside a private range is still metadata.
    expect(lan.refusal('100.100.100.200')).toBe('a link-local or cloud-metadata address');
  });

  it('refuses extra ranges, and lets `allow` override any refusal', () => {
    const policy = new CompiledEgressPolicy({
      refuse: ['203.0.113.0/24', '2001:db8::/32'],
      allow: ['169.254.10.0/24', '203.0.113.7'],
    });
    expect(policy.refusal('203.0.113.9')).toBe('an address the policy refuses');
    expect(policy.refusal('2001:db8::5')).toBe('an address the policy refuses');
    expect(policy.refusal('203.0.113.7')).toBeUndefined();
    expect(policy.refusal('169.254.10.20')).toBeUndefined();
    expect(policy.refusal('169.254.169.254')).toBe('a link-local or cloud-metadata address');
  });

  it.each(['10.0.0.0/33', '10.0.0/8', 'example.com', '10.0.0.0/', '10.0.0.0/8x', '::/129'])(
    'refuses a malformed range %s when the policy is made',
    (range) => {
      expect(() => new CompiledEgressPolicy({ refuse: [range] })).toThrow(TypeError);
    },
  );

  it('gives policies that judge alike the same key, so they share a connection pool', () => {
    expect(egressPolicyKey({ refuse: ['a', 'b'] })).toBe(
      egressPolicyKey({ refuse: ['b', 'a'], refusePrivate: false }),
    );
    expect(egressPolicyKey({})).not.toBe(egressPolicyKey({ refuseLoopback: true }));
  });
});
