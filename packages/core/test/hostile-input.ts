import fc from 'fast-check';
import { expect } from 'vitest';
import { isNullRecordPrototype } from '../src/handler/request/null-record.js';
import { ErrorBodySchema, ParameterListSchema, type ConnectorResponse } from '../src/index.js';

/** Keys that pollute prototypes when a parser or a merge assigns them naively. */
export const POLLUTING_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

/** Object keys an attacker picks: the polluting ones, names the SDK reads, and anything else. */
export const hostileKey = fc.oneof(
  fc.constantFrom(...POLLUTING_KEYS, 'toString', 'hasOwnProperty', 'key', 'value', 'sensitive'),
  fc.string({ maxLength: 12 }),
);

/**
 * JSON text (not a value: `JSON.stringify` of a value cannot hold an own `__proto__` key) with hostile keys
 * anywhere, nested a few levels.
 */
export const hostileJsonText: fc.Arbitrary<string> = fc.letrec<{ node: string }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.jsonValue({ maxDepth: 1 }).map((value) => JSON.stringify(value)),
    fc
      .array(fc.tuple(hostileKey, tie('node')), { maxLength: 5 })
      .map((pairs) => `{${pairs.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
    fc.array(tie('node'), { maxLength: 5 }).map((items) => `[${items.join(',')}]`),
  ),
})).node;

/** Any text a client could send as a body: hostile JSON, JSON-ish fragments, random strings and bytes. */
export const hostileBodyText = fc.oneof(
  hostileJsonText,
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.uint8Array({ maxLength: 256 }).map((bytes) => new TextDecoder().decode(bytes)),
  hostileJsonText.chain((text) => fc.nat({ max: text.length }).map((cut) => text.slice(0, cut))),
);

const prototypes = [Object.prototype, Array.prototype, Function.prototype, String.prototype];
const baseline = prototypes.map((proto) => Object.getOwnPropertyNames(proto).sort());

/** Fails when any built-in prototype gained or lost a property since this module loaded. */
export function expectPrototypesClean(): void {
  expect(prototypes.map((proto) => Object.getOwnPropertyNames(proto).sort())).toEqual(baseline);
  const probe = {} as Record<string, unknown>;
  for (const name of ['polluted', 'isAdmin', 'key', 'value', 'sensitive'])
    expect(probe[name]).toBeUndefined();
}

/**
 * Fails when a value handed to connector code has an object whose prototype is not the plain one (or none),
 * or an inherited property an attacker named.
 */
export function expectPlainData(value: unknown): void {
  const pending: unknown[] = [value];
  for (let current = pending.pop(); current !== undefined; current = pending.pop()) {
    if (typeof current !== 'object' || current === null) continue;
    const proto = Object.getPrototypeOf(current) as unknown;
    if (!isNullRecordPrototype(proto))
      expect([null, Object.prototype, Array.prototype]).toContain(proto);
    for (const key of Object.keys(current)) pending.push((current as Record<string, unknown>)[key]);
  }
}

/**
 * Checks what every answer must be: JSON with `content-type: application/json`, a contract error body on
 * failure, and a status the caller allows.
 */
export function expectContractResponse(
  response: ConnectorResponse,
  allowed: readonly number[],
  success: 'entries' | 'any' = 'any',
): void {
  expect(response.headers['content-type']).toBe('application/json');
  expect(allowed).toContain(response.status);
  const json = JSON.parse(response.body) as unknown;
  if (response.status >= 400) ErrorBodySchema.parse(json);
  else if (success === 'entries') ParameterListSchema.parse(json);
}
