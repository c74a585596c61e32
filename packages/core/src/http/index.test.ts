import { expect, it } from 'vitest';
import * as entry from './index.js';

it('exports exactly the public API of the http subpath', () => {
  expect(Object.keys(entry).sort()).toMatchInlineSnapshot(`
    [
      "DEFAULT_ERROR_RULES",
      "HTTPError",
      "TimeoutError",
      "createEndSystemClient",
      "extractErrorInfo",
      "multipartBody",
      "tapEndSystem",
    ]
  `);
});
