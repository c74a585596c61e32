// The naive server that seals its session as the SDK does, and nothing more: a server of the full run
// (servers.mjs), the baseline of the initialize budget on the price of safety (budgets.mjs). Its initialize
// answers the floor's answer, the ids and the session's token with both MACs, but makes the MACs the SDK's way
// (core's security/hmac-sha256.ts: HMAC-SHA-256 on two one-shot `crypto.hash` calls into kept buffers, no
// buffer per MAC, the message's bytes cleared after) rather than the floor's `createHmac`. It does none of the
// SDK's other safety: no redaction, no header checks, no reading the session back. Against the naive server
// (`pnpm bench:pair --server naive-sealed --against naive --scenarios initialize`) the ratio is what sealing
// costs over HTTP, made as the floor makes its texts, with the longer answer the seal brings; the SDK against
// it is what the rest of its safety costs. Core's construction is internal, so it is copied here.
import { hash } from 'node:crypto';
import * as handWritten from '../hand-written.mjs';
import { getIssue } from '../naive.mjs';
import { BENCH_SESSION_KEY, sealWith } from '../session-mac.mjs';
import { start as startFloor } from './floor.mjs';

const BLOCK = 64;
const DIGEST = 32;
/** Messages up to this many bytes go into the kept buffer; longer ones get their own, as in core. */
const SCRATCH_BYTES = 8 * 1024;
const inner = Buffer.alloc(BLOCK + SCRATCH_BYTES);
const outer = Buffer.alloc(BLOCK + DIGEST);
const digest = Buffer.alloc(DIGEST);
const key = Buffer.from(BENCH_SESSION_KEY);
// Core hashes a key longer than the block first; the bench's key is shorter, and this copy need not.
if (key.length > BLOCK) throw new RangeError('the bench key is longer than a SHA-256 block');
for (let i = 0; i < BLOCK; i++) {
  inner[i] = (key[i] ?? 0) ^ 0x36;
  outer[i] = (key[i] ?? 0) ^ 0x5c;
}

/**
 * HMAC-SHA-256 as core makes it: the inner digest as a latin1 string into the kept outer block. The first
 * `bytes` bytes of the MAC, in base64url.
 *
 * @param {string} message
 * @param {number} bytes
 */
export function mac(message, bytes) {
  const length = Buffer.byteLength(message);
  let input;
  if (length <= SCRATCH_BYTES) {
    inner.write(message, BLOCK, 'utf8');
    input = inner.subarray(0, BLOCK + length);
  } else {
    input = Buffer.allocUnsafe(BLOCK + length);
    inner.copy(input, 0, 0, BLOCK);
    input.write(message, BLOCK, 'utf8');
  }
  try {
    outer.write(hash('sha256', input, 'binary'), BLOCK, 'latin1');
  } finally {
    input.fill(0, BLOCK, BLOCK + length);
  }
  if (bytes === DIGEST) return hash('sha256', outer, 'base64url');
  digest.write(hash('sha256', outer, 'binary'), 0, 'latin1');
  return digest.toString('base64url', 0, bytes);
}

/** The floor's fingerprint and seal, made with {@link mac}. */
export const macs = sealWith(mac);

/**
 * The hand-written initialize, sealed with core's construction of the MAC.
 *
 * @param {unknown} body
 * @param {string} sdkSessionId
 * @param {string | undefined} systemId
 */
export const initialize = (body, sdkSessionId, systemId) =>
  handWritten.initialize(body, sdkSessionId, systemId, { macs });

/** @param {{ port: number }} options */
export function start(options) {
  return startFloor(options, { ...handWritten, getIssue, initialize });
}
