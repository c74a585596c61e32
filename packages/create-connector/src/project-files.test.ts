import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { PROJECT_FILES } from './project-files.js';

it('gives a project the TypeScript configurations the getting-started guide shows for a set-up by hand', () => {
  const guide = readFileSync(new URL('../../../docs/getting-started.md', import.meta.url), 'utf8');
  const shown = (file: string) =>
    new RegExp(`\`${file.replace('.', '\\.')}\`[^\\n]*\\n\\n\`\`\`json\\n([\\s\\S]*?)\`\`\``).exec(
      guide,
    )?.[1];
  expect(shown('tsconfig.json')).toBe(PROJECT_FILES['tsconfig.json']);
  expect(shown('tsconfig.build.json')).toBe(PROJECT_FILES['tsconfig.build.json']);
});
