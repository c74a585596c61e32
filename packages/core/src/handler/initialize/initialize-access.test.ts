import { describe, expect, it } from 'vitest';
import { InitializeAccess } from './initialize-access.js';

// initializeFrom admits the networks it lists, as the socket shows their peers: an IPv4 address, or the same
// address IPv4-mapped on a dual-stack socket. The IPv6 forms that embed an IPv4 address (6to4, NAT64,
// IPv4-compatible, SIIT) are other peers: anyone on the IPv6 internet can send from them.

describe('who may initialize, by network', () => {
  const access = new InitializeAccess({ initializeFrom: ['10.0.0.0/8', '2001:4860::/32'] });
  const admits = (address: string) => {
    try {
      access.checkSource(address);
      return true;
    } catch {
      return false;
    }
  };

  it.each(['10.1.2.3', '::ffff:10.1.2.3', '[::ffff:a01:203]', '2001:4860::1'])(
    'admits %s, an address of a listed network',
    (address) => {
      expect(admits(address)).toBe(true);
    },
  );

  it.each([
    ['2002:a01:203::1', '6to4'],
    ['64:ff9b::a01:203', 'NAT64'],
    ['::a01:203', 'IPv4-compatible'],
    ['::ffff:0:a01:203', 'SIIT'],
    ['11.0.0.1', 'outside the range'],
    ['not-an-address', 'not an address'],
  ])('refuses %s (%s)', (address) => {
    expect(admits(address)).toBe(false);
  });
});
