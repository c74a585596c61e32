import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { importedPackages } from './project-manifest.js';

it('reads the packages a project imports from its import statements only', () => {
  const dir = mkdtempSync(join(tmpdir(), 'manifest-'));
  const main = join(dir, 'main.ts');
  const helper = join(dir, 'helper.ts');
  writeFileSync(
    main,
    [
      "import type { Logger } from '@connector-sdk/core';",
      'import {',
      '  serve,',
      "} from '@connector-sdk/node';",
      "import './helper.js';",
      "export { z } from 'zod';",
      // A call that passes the word "from" and then a string is not an import.
      "const range = instant(url, 'from')",
      "  .between('not-a-package');",
      "const later = await import('pino');",
    ].join('\n'),
  );
  writeFileSync(helper, "import { createHash } from 'node:crypto';\nimport ky from 'ky';\n");
  const { production } = importedPackages([main, helper], main);
  expect([...production].sort()).toEqual([
    '@connector-sdk/core',
    '@connector-sdk/node',
    'ky',
    'pino',
    'zod',
  ]);
});
