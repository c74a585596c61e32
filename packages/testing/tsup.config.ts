import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.shared.js';

// `./vitest` is exported for `import` only (Vitest itself cannot be required), as is `./dev` (a development
// tool whose module hooks and reloads are ES modules); the bin is ESM.
export default defineConfig({
  ...packageBuild,
  entry: ['src/index.ts', 'src/vitest.ts', 'src/dev.ts', 'src/cli.ts'],
});
