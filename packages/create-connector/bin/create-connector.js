#!/usr/bin/env node
// The command's entry: a committed file, so package managers can link it before the package is built.
import('../dist/cli.js').catch((error) => {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
  console.error(
    'create-connector is not built yet: run pnpm build in the Connector SDK repository',
  );
  process.exitCode = 1;
});
