// A probe, not a server of the full run (PROBES in servers.mjs): the naive server that seals its session as
// the SDK does, and nothing more. Its initialize answers the floor's answer, the ids and the session's token
// with both MACs, but makes the MACs the SDK's way (core's security/hmac-sha256.ts: HMAC-SHA-256 on two
// one-shot `crypto.hash` calls into kept buffers, no buffer per MAC) rather than the floor's `createHmac`. It
// does none of the SDK's other safety: no redaction, no header checks, no reading the session back. Against the
// naive server (`pnpm bench:pair --server probe-naive-sealed --against naive --scenarios initialize`) the
// ratio is the least a sealed initialize costs over HTTP, the seal at its cheapest and the longer answer.
import { hash } from 'node:crypto';
import * as handWritten from '../hand-written.mjs';
import { getIssue } from '../naive.mjs';
import { BENCH_SESSION_KEY, sealWith } from '../session-mac.mjs';
import { start as startFloor } from './floor.mjs';

const BLOCK = 64;
/** The longest message the kept buffer takes: the bench's are a few hundred bytes. */
const MAX_MESSAGE_BYTES = 8 * 1024;
const inner = Buffer.alloc(BLOCK + MAX_MESSAGE_BYTES);
const outer = Buffer.alloc(BLOCK + 32);
const digest = Buffer.alloc(32);
const key = Buffer.alloc(BLOCK);
Buffer.from(BENCH_SESSION_KEY).copy(key);
for (let i = 0; i < BLOCK; i++) {
  inner[i] = key[i] ^ 0x36;
  outer[i] = key[i] ^ 0x5c;
}

/**
 * HMAC-SHA-256 as core makes it: the inner digest as a latin1 string into the kept outer block. The first
 * `bytes` bytes of the MAC, in base64url.
 *
 * @param {string} message
 * @param {number} bytes
 */
export function mac(message, bytes) {
  if (Buffer.byteLength(message) > MAX_MESSAGE_BYTES) throw new RangeError('message too long');
  const length = inner.write(message, BLOCK, 'utf8');
  outer.write(hash('sha256', inner.subarray(0, BLOCK + length), 'binary'), BLOCK, 'latin1');
  if (bytes === 32) return hash('sha256', outer, 'base64url');
  digest.write(hash('sha256', outer, 'binary'), 0, 'latin1');
  return digest.toString('base64url', 0, bytes);
}

/** The floor's fingerprint and seal, made with {@link mac}. */
export const macs = sealWith(mac);

/** The hand-written initialize, sealed with core's construction of the MAC. */
const initialize = (body, sdkSessionId, systemId) =>
  handWritten.initialize(body, sdkSessionId, systemId, { macs });

/** @param {{ port: number }} options */
export function start(options) {
  return startFloor(options, { ...handWritten, getIssue, initialize });
}
