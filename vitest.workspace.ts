/**
 * The one place that lists the test projects: every public package, every example, the cross-binding
 * suite (core's behaviour over HTTP, on every binding), the guides' tested snippets, and the bench's own
 * logic (how a budget is judged; never its figures).
 * `vitest.config.ts` feeds this list to Vitest's `test.projects`.
 */
export default ['packages/*', 'examples/*', 'cross-binding', 'docs', 'bench'];
