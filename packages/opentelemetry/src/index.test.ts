import { expect, it } from 'vitest';
import * as entry from './index.js';

it('exports exactly the public API', () => {
  expect(Object.keys(entry).sort()).toMatchInlineSnapshot(`
    [
      "instrumentConnectorSdk",
    ]
  `);
});
