/**
 * The one place that lists the test projects: every public package, every example, the cross-binding
 * suite (core's behaviour over HTTP, on every binding), and the guides' tested snippets.
 * `vitest.config.ts` feeds this list to Vitest's `test.projects`.
 */
export default ['packages/*', 'examples/*', 'cross-binding', 'docs'];
