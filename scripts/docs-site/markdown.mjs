// What the site's markdown does beyond VitePress's own (docs/.vitepress/config.mts `markdown.config`). The
// guides are written to read on GitHub as well as on the site, so the site adapts to them, not the reverse.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { regionParts } from '../snippet-region.mjs';

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

const escapeHtml = (text) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/** docs/snippets/pasteable.json's fragments: blocks that are a part of a file, each with what it is a part of. */
const FRAGMENTS = JSON.parse(readFileSync(resolve(docs, 'snippets/pasteable.json'), 'utf8')).fragments;

/**
 * What the site says under a block copied from `path#region`: its full, tested source on GitHub, and whether
 * the block is a fragment (it does not compile pasted alone; docs/snippets/pasteable.json says what it is a part
 * of) or pastes as it is into a scaffolded project (check-pasted-snippets.mjs proves it). Undefined when the
 * file does not exist.
 *
 * @returns {{ url: string, fragment: string | undefined } | undefined}
 */
export function snippetSource(path, region) {
  const file = resolve(root, path);
  if (!existsSync(file)) return undefined;
  // The lines from the region's first line to its last (a region may come in parts).
  const parts = region ? regionParts(path, region) : undefined;
  const hash = parts ? `#L${parts[0][0]}-L${parts.at(-1)[1]}` : '';
  return { url: repositoryUrl(file, hash), fragment: region ? FRAGMENTS[`${path}#${region}`] : undefined };
}

/**
 * Every code block copied from a tested file carries `<!-- snippet: path#region -->` above it
 * (scripts/check-doc-snippets.mjs keeps the two equal). On the site the comment becomes a visible line under
 * the block: the link to the lines of the full file on GitHub, so a reader can see the imports and the test
 * around it, and for a fragment, that it is one and of what.
 */
function snippetSourceLinks(md) {
  md.core.ruler.push('snippet-source-links', (state) => {
    const tokens = state.tokens;
    for (let i = 0; i < tokens.length - 1; i++) {
      const marker = /^<!-- snippet: ([^#\s]+)(?:#([\w-]+))? -->/.exec(tokens[i].content ?? '');
      if (tokens[i].type !== 'html_block' || !marker || tokens[i + 1].type !== 'fence') continue;
      const [, path, region] = marker;
      const source = snippetSource(path, region);
      if (source === undefined) continue;
      const link = new state.Token('html_block', '', 0);
      const fragment = source.fragment
        ? `<strong>Fragment</strong> (${escapeHtml(source.fragment)}). `
        : '';
      link.content =
        `<p class="snippet-source">${fragment}Full, tested source: <a href="${escapeHtml(source.url)}">` +
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
