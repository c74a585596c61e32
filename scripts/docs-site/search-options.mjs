// The MiniSearch options of the site's search box (docs/.vitepress/config.mts), shared with the build's check of
// what it finds (check-search.mjs). VitePress sends them to the browser as text, so each function here must use
// nothing but its arguments.

/** Merged by VitePress over its own (fuzzy 0.2, prefix, boost title 4, text 2, titles 1). */
export const SEARCH_OPTIONS = {
  /**
   * A guide's section ranks above an API entry that matches as well: the API reference holds ten times as many
   * sections (every property of every options type), and a reader who types a topic ("egress", "retry-after")
   * wants the page that explains it first, with the options it names just below. A symbol's own name still
   * puts its page first (titles weigh twice the text).
   */
  boostDocument: (id) => (id.startsWith('/api/') ? 1 : 2),
};
