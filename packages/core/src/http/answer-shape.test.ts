// The client's answers keep the shape fetch gave them. An answer whose `body` the client re-binds (so that a
// streamed download outlives the attempt's timeout: ARCHITECTURE.md, D16) got a getter closure of its own; V8
// cannot share a hidden class between objects whose accessors differ, so every answer after the first fell into
// dictionary mode, and each property read of it by ky, undici and connector code took the slow path.
import { setFlagsFromString } from 'node:v8';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEndSystem } from '../../test/local-end-system.js';
import { createEndSystemClient } from './index.js';

let end: Awaited<ReturnType<typeof startEndSystem>>;
beforeAll(async () => {
  end = await startEndSystem();
});
afterAll(() => end.close());

/** V8's own view of two objects' shapes; natives syntax is read when the function is compiled. */
function v8Shapes(): {
  sameMap: (a: object, b: object) => boolean;
  fast: (a: object) => boolean;
} {
  setFlagsFromString('--allow-natives-syntax');
  return {
    sameMap: new Function('a', 'b', 'return %HaveSameMap(a, b)') as never,
    fast: new Function('a', 'return %HasFastProperties(a)') as never,
  };
}

describe("the client's answers", () => {
  it('share one hidden class, in fast mode, read whole or streamed', async () => {
    const { sameMap, fast } = v8Shapes();
    end.script((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"ok":true}');
    });
    const client = createEndSystemClient({ baseUrl: end.url, egress: { allow: ['127.0.0.1'] } });
    const first = await client.get('items/0');
    const others: Response[] = [];
    for (let index = 1; index < 4; index++) others.push(await client.get(`items/${index}`));
    expect(fast(first)).toBe(true);
    for (const answer of others) {
      expect(fast(answer)).toBe(true);
      expect(sameMap(first, answer)).toBe(true);
    }

    // Still what the re-bound body is for: the first answer read whole, another as a stream.
    expect(await first.json()).toEqual({ ok: true });
    const streamed = await new Response(others[0]?.body).text();
    expect(streamed).toBe('{"ok":true}');
  });
});
