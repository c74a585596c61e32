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
    ['127.0.0.1', 'a loopback address'],
    ['127.1.2.3', 'a loopback address'],
    ['::1', 'a loopback address'],
    ['0.0.0.0', 'a loopback address'],
    ['::', 'a loopback address'],
    ['::ffff:127.0.0.1', 'a loopback address'],
    ['[::ffff:7f00:1]', 'a loopback address'],
    ['10.0.0.1', 'a private address'],
    ['172.16.0.1', 'a private address'],
    ['172.31.255.255', 'a private address'],
    ['192.168.1.1', 'a private address'],
    ['100.64.0.1', 'a private address'],
    ['fd12::1', 'a private address'],
    ['fc00::1', 'a private address'],
    ['64:ff9b::a00:1', 'a private address'],
    ['168.63.129.16', 'a link-local or cloud-metadata address'],
    ['::ffff:168.63.129.16', 'a link-local or cloud-metadata address'],
    ['192.0.0.192', 'a link-local or cloud-metadata address'],
    ['64:ff9b:1::a00:1', 'a multicast or reserved address'],
    ['64:ff9b:1:ffff::8.8.8.8', 'a multicast or reserved address'],
    ['198.18.0.1', 'a multicast or reserved address'],
    // Teredo (its server and client addresses hide an IPv4 one), ORCHID and ORCHIDv2, documentation, discard.
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'a multicast or reserved address'],
    ['2001::1', 'a multicast or reserved address'],
    ['2001:10::1', 'a multicast or reserved address'],
    ['2001:20::1', 'a multicast or reserved address'],
    ['2001:db8::1', 'a multicast or reserved address'],
    ['3fff::1', 'a multicast or reserved address'],
    ['100::1', 'a multicast or reserved address'],
  ])(
    "refuses %s by default: whoever initializes must not reach the operator's network",
    (address, reason) => {
      expect(byDefault.refusal(address)).toBe(reason);
    },
  );

  it.each([
    '8.8.8.8',
    '172.32.0.1',
    '2606:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    // Public IPv6 beside the refused 2001:: blocks: Teredo is 2001:0::/32 only, ORCHID 2001:10::/28 only.
    '2001:4860:4860::8888',
    '2001:1::1',
    '2001:30::1',
    '2001:db9::1',
  ])('allows the public address %s by default', (address) => {
    expect(byDefault.refusal(address)).toBeUndefined();
  });

  it('opens addresses, ranges, host names and wildcard domains the operator allows, never metadata by name', () => {
    const policy = new CompiledEgressPolicy({
      allow: [
        '10.20.0.0/16',
        '127.0.0.1',
        'Jira.Corp.Example.',
        '*.svc.cluster.local',
        'localhost',
      ],
    });
    expect(policy.refusal('10.20.3.4')).toBeUndefined();
    expect(policy.refusal('10.21.0.1')).toBe('a private address');
    expect(policy.refusal('127.0.0.1')).toBeUndefined();
    expect(policy.refusal('127.0.0.2')).toBe('a loopback address');
    // A name opens the loopback and private addresses it resolves to.
    expect(policy.refusal('10.99.0.1', 'jira.corp.example')).toBeUndefined();
    expect(policy.refusal('10.99.0.1', 'JIRA.corp.example.')).toBeUndefined();
    expect(policy.refusal('10.99.0.1', 'api.tasks.svc.cluster.local')).toBeUndefined();
    expect(policy.refusal('::1', 'localhost')).toBeUndefined();
    // Not the wildcard's own domain, nor a name that only ends alike.
    expect(policy.refusal('10.99.0.1', 'svc.cluster.local')).toBe('a private address');
    expect(policy.refusal('10.99.0.1', 'evilsvc.cluster.local')).toBe('a private address');
    expect(policy.refusal('10.99.0.1', 'jira.corp.example.evil.example')).toBe('a private address');
    // A name never opens metadata: only an address entry does.
    expect(policy.refusal('169.254.169.254', 'jira.corp.example')).toBe(
      'a link-local or cloud-metadata address',
    );
    expect(policy.allowsHost('x.svc.cluster.local')).toBe(true);
    expect(byDefault.allowsHost('localhost')).toBe(false);
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

  it('never opens a metadata address through a broad range that happens to hold it, only by naming it', () => {
    // Tailscale's CGNAT range holds Alibaba's metadata address; fd00::/8 holds AWS's IPv6 one (found by review).
    const broad = new CompiledEgressPolicy({ allow: ['100.64.0.0/10', 'fd00::/8', 'fc00::/7'] });
    expect(broad.refusal('100.100.1.1')).toBeUndefined();
    expect(broad.refusal('100.100.100.200')).toBe('a link-local or cloud-metadata address');
    expect(broad.refusal('fd00:ec2::254')).toBe('a link-local or cloud-metadata address');
    expect(broad.refusal('::ffff:100.100.100.200')).toBe('a link-local or cloud-metadata address');
    const named = new CompiledEgressPolicy({ allow: ['100.100.100.200', '169.254.10.0/24'] });
    expect(named.refusal('100.100.100.200')).toBeUndefined();
    expect(named.refusal('169.254.10.7')).toBeUndefined();
    expect(named.refusal('169.254.169.254')).toBe('a link-local or cloud-metadata address');
  });

  it.each(['10.0.0.0/33', 'http://a.example', 'a b', '*', '*.', 'a..b', '-a.example', ''])(
    'refuses an allow entry %j that is neither a range nor a host name',
    (entry) => {
      expect(() => new CompiledEgressPolicy({ allow: [entry] })).toThrow(TypeError);
    },
  );

  it('gives policies that judge alike the same key, so they share a connection pool', () => {
    expect(egressPolicyKey({ refuse: ['a', 'b'] })).toBe(egressPolicyKey({ refuse: ['b', 'a'] }));
    expect(egressPolicyKey({ allow: ['a', 'b'] })).toBe(egressPolicyKey({ allow: ['b', 'a'] }));
    expect(egressPolicyKey({})).not.toBe(egressPolicyKey({ allow: ['localhost'] }));
  });
});
