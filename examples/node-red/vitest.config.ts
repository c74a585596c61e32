import { defineProject } from 'vitest/config';

// Inside the Connector SDK repo, resolve @connector-sdk/* to their source; elsewhere the condition is unused.
const conditions = [
  '@connector-sdk/source',
  'module',
  'node',
  'development|production',
];

export default defineProject({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    name: 'example-node-red',
    // Each test file starts a real Node-RED (about 3 s on an idle machine, more on a busy CI runner).
    hookTimeout: 60_000,
    testTimeout: 20_000,
  },
});
