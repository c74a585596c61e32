import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

const failOnConsole = fileURLToPath(new URL('./scripts/fail-on-console.ts', import.meta.url));

/**
 * Resolve `@connector-sdk/*` workspace packages to their TypeScript source (the `@connector-sdk/source`
 * export condition) so tests never run against a stale `dist`. Setting conditions replaces Vite's defaults,
 * so those are repeated here.
 */
const conditions = ['@connector-sdk/source', 'module', 'node', 'development|production'];

/** Vitest project config for one workspace package. */
export function workspaceProject(name: string) {
  return defineProject({
    resolve: { conditions },
    ssr: { resolve: { conditions } },
    test: { name, setupFiles: [failOnConsole] },
  });
}
