import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

const failOnConsole = fileURLToPath(new URL('./scripts/fail-on-console.ts', import.meta.url));

/**
 * Resolve `@connector-sdk/*` workspace packages to their TypeScript source (the `@connector-sdk/source`
 * export condition) so tests never run against a stale `dist`. Setting conditions replaces Vite's defaults,
 * so those are repeated here.
 */
const conditions = ['@connector-sdk/source', 'module', 'node', 'development|production'];

/**
 * Vitest project config for one workspace package. No test is judged by how long it takes: the time a test or
 * hook may run is only a backstop for one that hangs, patient enough that a busy two-core CI machine running the
 * whole suite never reaches it with a test that would pass (some move megabytes through real servers and take
 * seconds there). A test that hangs still fails, later.
 */
export function workspaceProject(name: string) {
  return defineProject({
    resolve: { conditions },
    ssr: { resolve: { conditions } },
    test: { name, setupFiles: [failOnConsole], testTimeout: 30_000, hookTimeout: 60_000 },
  });
}
