import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.shared.js';

export default defineConfig({
  ...packageBuild,
  // The end-system client is its own entry, so connectors that do not use it never load it (nor undici).
  // So are the auth kit (and jose, which it loads only to sign) and the declarative layer. `internal` holds
  // what the bindings share with core, outside the public entry points.
  entry: {
    index: 'src/index.ts',
    'http/index': 'src/http/index.ts',
    'auth/index': 'src/auth/index.ts',
    'rest/index': 'src/rest/index.ts',
    internal: 'src/internal.ts',
  },
});
