// The docs site: the guides in docs/ and the API reference TypeDoc writes into docs/api/ (typedoc.json), built
// by `pnpm run docs` into docs-site/. What the markdown adds lives in scripts/docs-site/markdown.mjs.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { defineConfig, type DefaultTheme, type UserConfig } from 'vitepress';
import llmstxt from 'vitepress-plugin-llms';
import { guideSidebar, unlistedGuides } from '../../scripts/docs-site/guides.mjs';
import { REPOSITORY, githubSlug, siteMarkdown } from '../../scripts/docs-site/markdown.mjs';
import { SEARCH_OPTIONS } from '../../scripts/docs-site/search-options.mjs';

const unlisted = unlistedGuides();
if (unlisted.length > 0)
  throw new Error(
    `docs/${unlisted.join('.md, docs/')}.md ${unlisted.length === 1 ? 'is' : 'are'} in no sidebar group: ` +
      'add them to GUIDE_GROUPS in scripts/docs-site/guides.mjs',
  );

/** A Vite plugin, as VitePress's own config types it (vite is VitePress's dependency, not ours). */
type Plugin = Extract<
  NonNullable<NonNullable<UserConfig['vite']>['plugins']>[number],
  { name: string }
>;

const readText = (file: string) => readFileSync(file, 'utf8');
const guides = guideSidebar(readText);
const apiSidebar = JSON.parse(readText(new URL('../api/typedoc-sidebar.json', import.meta.url)));

/** Serves mermaid's browser build as /mermaid.min.js, so diagrams render without a network or a bundle step. */
function mermaidAsset(): Plugin {
  const require = createRequire(import.meta.url);
  const source = () => readFileSync(require.resolve('mermaid/dist/mermaid.min.js'), 'utf8');
  let ssr = false;
  return {
    name: 'connector-sdk:mermaid-asset',
    configResolved(config) {
      ssr = Boolean(config.build.ssr);
    },
    configureServer(server) {
      server.middlewares.use('/mermaid.min.js', (_req, res) => {
        res.setHeader('content-type', 'text/javascript; charset=utf-8');
        res.end(source());
      });
    },
    generateBundle() {
      if (!ssr) this.emitFile({ type: 'asset', fileName: 'mermaid.min.js', source: source() });
    },
  };
}

export default defineConfig({
  title: 'Connector SDK',
  description:
    'A TypeScript SDK for integration-platform connectors: a correct, secure connector in a few dozen lines, ' +
    'and the kit that tests it against the platform contract.',
  outDir: '../docs-site',
  cacheDir: '../node_modules/.cache/vitepress',
  srcExclude: ['snippets/**', 'node_modules/**'],
  lastUpdated: false,
  markdown: {
    anchor: { slugify: githubSlug },
    config: siteMarkdown,
  },
  vite: {
    plugins: [
      mermaidAsset(),
      // llms.txt lists the guides first, in the sidebar's order, then the API reference.
      llmstxt({
        title: 'Connector SDK',
        sidebar: [...guides, { text: 'API reference', items: apiSidebar }],
      }),
    ],
    // The local search index holds the guides and the whole API reference (about 1.1 MB, loaded on first search).
    build: { chunkSizeWarningLimit: 1600 },
  },
  transformPageData(page) {
    // The API reference is generated from the TSDoc; there is no page to edit.
    if (page.relativePath.startsWith('api/')) page.frontmatter.editLink = false;
  },
  themeConfig: {
    nav: [
      { text: 'Guides', link: '/getting-started', activeMatch: '^/(?!api/)[^/]+$' },
      { text: 'API reference', link: '/api/', activeMatch: '^/api/' },
      ...(existsSync(new URL('../examples.md', import.meta.url))
        ? [{ text: 'Examples', link: '/examples' }]
        : []),
    ],
    sidebar: {
      '/api/': [
        { text: '← Guides', link: '/getting-started' },
        { text: 'API reference', link: '/api/', items: apiSidebar },
      ] as DefaultTheme.SidebarItem[],
      '/': guides,
    },
    outline: { level: [2, 3] },
    editLink: {
      pattern: `${REPOSITORY}/edit/main/docs/:path`,
      text: 'Edit this page on GitHub',
    },
    socialLinks: [{ icon: 'github', link: REPOSITORY }],
    search: {
      provider: 'local',
      // Each result shows its section's text, and guides rank above API entries that match as well.
      options: { detailedView: true, miniSearch: { searchOptions: SEARCH_OPTIONS } },
    },
    docFooter: { prev: 'Previous', next: 'Next' },
  },
});
