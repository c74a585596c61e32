// What the site's markdown does beyond VitePress's own (docs/.vitepress/config.mts `markdown.config`). The
// guides are written to read on GitHub as well as on the site, so the site adapts to them, not the reverse.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
const docs = resolve(root, 'docs');
/** Where the repository lives: the `repository` of every packages/*\/package.json, at its main branch. */
export const REPOSITORY = 'https://github.com/connector-sdk/connector-sdk';

/** The URL of a file or folder of the repository on GitHub's main branch. */
export function repositoryUrl(absolute, hash = '') {
  const path = relative(root, absolute).split('\\').join('/');
  const kind = existsSync(absolute) && statSync(absolute).isDirectory() ? 'tree' : 'blob';
  return `${REPOSITORY}/${kind}/main/${path}${hash}`;
}

/**
 * Heading anchors as GitHub makes them (lower case, punctuation dropped, each space a dash), so a link written
 * and followed on GitHub (`bindings.md#nodehttp--connector-sdknode`) lands on the same heading on the site.
 * VitePress's own slugify turns punctuation into dashes and would break those links.
 */
export function githubSlug(text) {
  return text
    .trim()
    .toLowerCase()
    .replace(/<[^>]*>/g, '')
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/**
 * Links from a guide to files that are not pages of the site (the examples, `bench/`, a package's source, the
 * README): on GitHub they open the file; on the site they would be dead, so they open the repository instead.
 */
function repositoryLinks(md) {
  md.core.ruler.push('repository-links', (state) => {
    const page = state.env.path;
    if (!page) return;
    for (const block of state.tokens) {
      for (const token of block.children ?? []) {
        if (token.type !== 'link_open') continue;
        const href = token.attrGet('href');
        if (!href || /^(?:[a-z]+:|#|\/)/i.test(href)) continue;
        const [path, hash = ''] = href.split(/(?=#)/);
        const absolute = resolve(dirname(page), decodeURIComponent(path));
        const isPage = absolute.startsWith(docs + '/') && absolute.endsWith('.md') && !absolute.includes('/snippets/');
        if (!isPage) token.attrSet('href', repositoryUrl(absolute, hash));
      }
    }
  });
}

/** The first and last line (1-based) of `// #region name` … `// #endregion name` in a file, markers excluded. */
function regionLines(file, name) {
  const lines = readFileSync(file, 'utf8').split('\n');
  const start = lines.findIndex((line) => line.trim() === `// #region ${name}`);
  const end = lines.findIndex((line, i) => i > start && line.trim() === `// #endregion ${name}`);
  return start === -1 || end === -1 ? undefined : [start + 2, end];
}

const escapeHtml = (text) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/**
 * Every code block copied from a tested file carries `<!-- snippet: path#region -->` above it
 * (scripts/check-doc-snippets.mjs keeps the two equal). On the site the comment becomes a visible link under
 * the block, to the lines of the full file on GitHub, so a reader can see the imports and the test around it.
 */
function snippetSourceLinks(md) {
  md.core.ruler.push('snippet-source-links', (state) => {
    const tokens = state.tokens;
    for (let i = 0; i < tokens.length - 1; i++) {
      const marker = /^<!-- snippet: ([^#\s]+)(?:#([\w-]+))? -->/.exec(tokens[i].content ?? '');
      if (tokens[i].type !== 'html_block' || !marker || tokens[i + 1].type !== 'fence') continue;
      const [, path, region] = marker;
      const file = resolve(root, path);
      if (!existsSync(file)) continue;
      const lines = region ? regionLines(file, region) : undefined;
      const hash = lines ? `#L${lines[0]}-L${lines[1]}` : '';
      const link = new state.Token('html_block', '', 0);
      link.content =
        `<p class="snippet-source">Full, tested source: <a href="${escapeHtml(repositoryUrl(file, hash))}">` +
        `<code>${escapeHtml(path)}</code></a></p>\n`;
      tokens.splice(i + 2, 0, link);
    }
  });
}

/**
 * ```mermaid blocks become a placeholder the theme renders in the browser (docs/.vitepress/theme), with the
 * diagram's text kept for readers without JavaScript and for the search index.
 */
function mermaidBlocks(md) {
  const fence = md.renderer.rules.fence;
  md.renderer.rules.fence = (tokens, idx, options, env, self) => {
    const token = tokens[idx];
    if (token.info.trim() !== 'mermaid') return fence(tokens, idx, options, env, self);
    return `<div class="mermaid-diagram" v-pre><pre class="mermaid-source">${escapeHtml(token.content)}</pre></div>\n`;
  };
}

/**
 * Inline code is shown as written: Vue reads `{{ … }}` in a page as an expression, and the API reference quotes
 * such text from TSDoc (a cassette's `{{secret:1}}` placeholder), which then broke the site's build.
 */
function verbatimInlineCode(md) {
  const code = md.renderer.rules.code_inline;
  md.renderer.rules.code_inline = (tokens, idx, options, env, self) =>
    code(tokens, idx, options, env, self).replace(/^<code/, '<code v-pre');
}

/** @param {import('markdown-it').default} md */
export function siteMarkdown(md) {
  md.use(repositoryLinks);
  md.use(snippetSourceLinks);
  md.use(mermaidBlocks);
  md.use(verbatimInlineCode);
}
