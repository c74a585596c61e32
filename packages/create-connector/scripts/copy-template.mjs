// Copies the issue-tracker example into template/ so the published package carries it. In the repository,
// the scaffolder reads the example directly, so the template is never stale in tests.
import { cpSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { TEMPLATE_FILES } from '../dist/index.js';

const example = resolve(import.meta.dirname, '../../../examples/issue-tracker');
const template = resolve(import.meta.dirname, '../template');
rmSync(template, { recursive: true, force: true });
for (const file of TEMPLATE_FILES)
  cpSync(resolve(example, file), resolve(template, file), { recursive: true });
