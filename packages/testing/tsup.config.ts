import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.shared.js';

// `./vitest` is exported for `import` only (Vitest itself cannot be required); the bin is ESM.
export default defineConfig({
  ...packageBuild,
  entry: ['src/index.ts', 'src/vitest.ts', 'src/cli.ts'],
});
