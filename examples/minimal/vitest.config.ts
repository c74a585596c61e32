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
  test: { name: 'example-minimal' },
});
