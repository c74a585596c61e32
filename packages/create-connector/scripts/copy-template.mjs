// Copies each template's example into template/<example> so the published package carries them. In the
// repository, the scaffolder reads the examples directly, so a template is never stale in tests.
import { cpSync, rmSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { TEMPLATES } from '../dist/index.js';

const template = resolve(import.meta.dirname, '../template');
rmSync(template, { recursive: true, force: true });
for (const { example } of Object.values(TEMPLATES)) {
  const from = resolve(import.meta.dirname, '../../../examples', example);
  cpSync(from, resolve(template, example), {
    recursive: true,
    filter: (source) => !relative(from, source).split(sep).includes('node_modules'),
  });
}
