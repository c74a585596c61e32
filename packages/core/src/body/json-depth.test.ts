import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ErrorBodySchema, createHandler, defineConnector, z } from '../index.js';
import { withSession } from '../../test/sessions.js';
import { MAX_JSON_DEPTH, nestedDeeperThan, textNestsDeeperThan } from './json-depth.js';

const echo = defineConnector({
  name: 'echo',
  version: '1',
  config: {},
  session: {},
  initialize: () => ({}),
  operations: ({ post }) => ({
    echo: post('/echo', { body: z.unknown() }, ({ body }) => ({ body })),
  }),
});
const handle = withSession(createHandler(echo));
const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('deeply nested request bodies', () => {
  it.each([
    ['as text', (text: string) => ({ text: async () => text })],
    ['already parsed', (text: string) => ({ body: JSON.parse(text) as unknown })],
  ])('answers a body nested past the limit with 400, %s', async (_kind, body) => {
    for (const depth of [MAX_JSON_DEPTH + 1, 10_000, 200_000]) {
      const response = await handle({
        method: 'POST',
        path: '/sdk/api/1.0/echo',
        headers: {},
        ...body(nested(depth)),
      });
      expect(response.status).toBe(400);
      expect(ErrorBodySchema.parse(JSON.parse(response.body)).errors.code).toBe('INVALID_JSON');
    }
  });

  it('accepts a body nested up to the limit', async () => {
    const response = await handle({
      method: 'POST',
      path: '/sdk/api/1.0/echo',
      headers: {},
      text: async () => `{"a":${nested(MAX_JSON_DEPTH - 1)}}`,
    });
    expect(response.status).toBe(200);
  });
});

describe('the depth read from the text, before parsing', () => {
  it('says what walking the parsed value says, for any JSON text (property)', () => {
    const max = 6;
    fc.assert(
      fc.property(
        fc.jsonValue({ depthSize: 'large', maxDepth: 12 }),
        fc.constantFrom(0, 2),
        (value, indent) => {
          const text = JSON.stringify(value, null, indent);
          expect(textNestsDeeperThan(text, max)).toBe(nestedDeeperThan(value, max));
        },
      ),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 500) },
    );
  });

  it('skips brackets inside strings, escaped quotes and backslashes included', () => {
    expect(textNestsDeeperThan(nested(3), 6)).toBe(false);
    expect(textNestsDeeperThan(nested(7), 6)).toBe(true);
    expect(textNestsDeeperThan(JSON.stringify({ a: 'x'.repeat(500), b: [1, [2]] }), 6)).toBe(false);
    expect(textNestsDeeperThan(JSON.stringify(['[[[[[[[[']), 6)).toBe(false);
    expect(textNestsDeeperThan(JSON.stringify(['\\"[[[[[[[[', '\\', '"{{{{{{{{']), 6)).toBe(false);
    expect(textNestsDeeperThan(`["\\\\"${nested(7)}]`, 6)).toBe(true);
  });
});
