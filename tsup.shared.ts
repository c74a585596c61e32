import type { Options } from 'tsup';

/** The build every public package shares: ESM + CJS with types for both, for Node 20. */
export const packageBuild: Options = {
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
};
