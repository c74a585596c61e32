import { expect, it } from 'vitest';
import * as entry from './index.js';

it('exports exactly the public API of the auth subpath', () => {
  expect(Object.keys(entry).sort()).toEqual([
    'apiKey',
    'basicAuth',
    'bearerToken',
    'formLogin',
    'oauth2',
    'requestToken',
  ]);
});
