/**
 * The one place that lists the test projects: every public package, every example, and the
 * binding conformance suite, and the guides' tested snippets.
 * `vitest.config.ts` feeds this list to Vitest's `test.projects`.
 */
export default ['packages/*', 'examples/*', 'conformance', 'docs'];
