import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * What a new project is copied from, relative to the template: the issue-tracker example's files.
 *
 * @internal
 */
export const TEMPLATE_FILES = ['package.json', 'tsconfig.json', 'vitest.config.ts', 'src'] as const;

/**
 * Where the template is: `template/` beside `dist/` in the published package, or the example itself when
 * running from the repository's source.
 *
 * @internal
 */
export function templateDirectory(): string {
  const published = fileURLToPath(new URL('../template', import.meta.url));
  if (existsSync(published)) return published;
  const repository = fileURLToPath(new URL('../../../examples/issue-tracker', import.meta.url));
  if (existsSync(repository)) return repository;
  throw new Error(`The connector template is missing (looked in ${published})`);
}
