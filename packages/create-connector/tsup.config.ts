import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.shared.js';

export default defineConfig({
  ...packageBuild,
  entry: ['src/index.ts', 'src/cli.ts'],
  // The template is found relative to the built file, in ESM and in CJS alike.
  shims: true,
});
