// Fails the docs build on a link that leads nowhere, and on a reference page whose URL names its package twice:
// `pnpm run docs` runs it on the built site (docs-site/).
// Every local link of every page (guides, landing page, API reference) must reach a page or file of the site,
// and its #anchor an element of that page; every link into the repository on GitHub (a file the guides link
// to, a snippet's source) must name a file or folder that exists, with its #anchor a heading of a Markdown file
// or lines the file has; every entry of llms.txt must be served, and every relative link of a guide's `.md` copy. VitePress's own check sees neither
// anchors nor the links this site rewrites to GitHub.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { REPOSITORY, githubSlug } from './markdown.mjs';

const root = resolve(import.meta.dirname, '../..');
const site = join(root, 'docs-site');

function* htmlFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* htmlFiles(path);
    else if (entry.name.endsWith('.html')) yield path;
  }
}

const decodeEntities = (text) =>
  text.replace(/&(amp|lt|gt|quot|#39);/g, (_, name) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name]);

const idsCache = new Map();
/** The ids of a built page's elements. */
function idsOf(file) {
  if (!idsCache.has(file)) {
    const html = readFileSync(file, 'utf8');
    idsCache.set(file, new Set([...html.matchAll(/\sid="([^"]*)"/g)].map((m) => decodeEntities(m[1]))));
  }
  return idsCache.get(file);
}

/** The file of the built site a path names, as a server of static files would find it, or undefined. */
function siteFile(pathname) {
  const path = join(site, decodeURIComponent(pathname));
  if (!path.startsWith(site)) return undefined;
  for (const candidate of [path, `${path}.html`, join(path, 'index.html')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

const headingsCache = new Map();
/** The anchors GitHub gives the headings of a Markdown file of the repository. */
function markdownAnchors(file) {
  if (!headingsCache.has(file)) {
    const seen = new Map();
    const anchors = new Set();
    for (const [, text] of readFileSync(file, 'utf8').matchAll(/^#{1,6} +(.+?) *#* *$/gm)) {
      const slug = githubSlug(text.replace(/`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1'));
      const count = seen.get(slug) ?? 0;
      seen.set(slug, count + 1);
      anchors.add(count === 0 ? slug : `${slug}-${count}`);
    }
    headingsCache.set(file, anchors);
  }
  return headingsCache.get(file);
}

/** What is wrong with a link into the repository on GitHub, or undefined. */
function checkRepositoryLink(url) {
  const match = /^\/(?:blob|tree|edit)\/main\/(.*)$/.exec(url.pathname.slice(new URL(REPOSITORY).pathname.length));
  if (!match) return undefined; // the repository itself, its issues…
  const path = join(root, decodeURIComponent(match[1]));
  if (!existsSync(path)) return `${match[1]} is not in the repository`;
  const hash = decodeURIComponent(url.hash.slice(1));
  if (!hash || statSync(path).isDirectory()) return undefined;
  const lines = /^L(\d+)(?:-L(\d+))?$/.exec(hash);
  if (lines) {
    const count = readFileSync(path, 'utf8').split('\n').length;
    return Number(lines[2] ?? lines[1]) > count ? `${match[1]} has only ${count} lines (#${hash})` : undefined;
  }
  if (path.endsWith('.md') && !markdownAnchors(path).has(hash))
    return `${match[1]} has no heading #${hash}`;
  return undefined;
}

const problems = [];
let checked = 0;
for (const file of htmlFiles(site)) {
  const page = relative(site, file).split('\\').join('/');
  // A subpath's reference sits under its package once: `api/@connector-sdk/core/http/`, never the package's
  // name twice (a module named by its whole import path is placed under its package's folder again).
  if (/@connector-sdk\/[^/]+\/@connector-sdk\//.test(page)) problems.push(`${page}: the package's name twice in the URL`);
  const base = new URL(page, 'http://site/');
  const html = readFileSync(file, 'utf8');
  for (const [, raw] of html.matchAll(/<a\s[^>]*?href="([^"]*)"/g)) {
    const href = decodeEntities(raw);
    if (href === '' || href === '#' || /^(?:mailto|javascript|data):/i.test(href)) continue;
    checked++;
    if (href.startsWith(`${REPOSITORY}/`)) {
      const problem = checkRepositoryLink(new URL(href));
      if (problem) problems.push(`${page}: ${href}: ${problem}`);
      continue;
    }
    if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//')) continue; // another site
    const url = new URL(href, base);
    const target = siteFile(url.pathname);
    if (!target) {
      problems.push(`${page}: ${href}: no such page or file`);
      continue;
    }
    const hash = decodeURIComponent(url.hash.slice(1));
    if (hash && target.endsWith('.html') && !idsOf(target).has(hash))
      problems.push(`${page}: ${href}: ${relative(site, target)} has no #${hash}`);
  }
}
for (const name of ['llms.txt', 'llms-full.txt', 'llms-small.txt']) {
  const file = join(site, name);
  if (!existsSync(file)) {
    problems.push(`${name} was not generated`);
    continue;
  }
  if (name !== 'llms.txt') continue;
  for (const [, href] of readFileSync(file, 'utf8').matchAll(/\]\((\/[^)\s]*)\)/g)) {
    checked++;
    if (!siteFile(new URL(href, 'http://site/').pathname)) problems.push(`llms.txt: ${href}: not served`);
  }
}
// The `.md` copy of each guide (what llms.txt lists): a relative link in it must reach a file the site serves.
for (const entry of readdirSync(site)) {
  if (!entry.endsWith('.md')) continue;
  for (const [, target] of readFileSync(join(site, entry), 'utf8').matchAll(
    /\]\((?!https?:|#|\/|mailto:)([^)\s]+)\)/g,
  )) {
    checked++;
    const path = target.split('#')[0];
    if (!existsSync(join(site, path))) problems.push(`${entry}: ${target}: not served`);
  }
}

if (problems.length > 0) {
  console.error(`docs: ${problems.length} broken link(s):\n${problems.join('\n')}`);
  process.exit(1);
}
console.log(`docs: ${checked} links checked, none broken`);
