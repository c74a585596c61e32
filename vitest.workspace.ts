/**
 * The one place that lists the test projects: every public package and every example.
 * `vitest.config.ts` feeds this list to Vitest's `test.projects`.
 */
export default ['packages/*', 'examples/*'];
