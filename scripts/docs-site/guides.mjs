// The guides in reading order, grouped as the site's sidebar shows them. Previous/next links follow this order,
// so a reader who starts at the top walks from a first connector to running it in production. A guide added to
// docs/ but not listed here fails the build (see `unlistedGuides`), so none is left out of the site.
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

const docs = resolve(import.meta.dirname, '../../docs');

/** Sidebar groups: a title and the guides' file names (without `.md`) in reading order. */
export const GUIDE_GROUPS = [
  {
    text: 'Start',
    items: [
      'getting-started',
      'from-scaffold-to-end-system',
      'examples',
      'lifecycle',
      'configuration',
    ],
  },
  {
    text: 'Build',
    items: [
      'operations',
      'errors-sessions-secrets',
      'end-system-client',
      'authentication',
      'platform-operations',
      'platform-search',
      'platform-related-records',
      'platform-attachments',
      'platform-history',
      'declarative-connectors',
      'logging',
    ],
  },
  { text: 'Test', items: ['dev-loop', 'testing', 'cli'] },
  {
    text: 'Run',
    items: ['bindings', 'deploying', 'performance', 'observability', 'security-model'],
  },
  {
    text: 'Reference',
    items: ['platform-contract', 'platform-errors', 'troubleshooting', 'versioning'],
  },
];

/** The title of a guide: its frontmatter `title`, else its first heading. */
function titleOf(text, name) {
  const frontmatter = /^---\n([\s\S]*?)\n---/.exec(text)?.[1] ?? '';
  const title = /^title:\s*"?(.+?)"?\s*$/m.exec(frontmatter);
  if (title) return title[1];
  return /^# (.+)$/m.exec(text)?.[1] ?? name;
}

/**
 * The sidebar of the guides: the groups above, each guide that exists under its title, and the API reference
 * last. A listed guide not written yet is left out rather than linked.
 */
export function guideSidebar(readText) {
  const groups = GUIDE_GROUPS.map(({ text, items }) => ({
    text,
    items: items
      .filter((name) => existsSync(join(docs, `${name}.md`)))
      .map((name) => ({ text: titleOf(readText(join(docs, `${name}.md`)), name), link: `/${name}` })),
  }));
  groups.at(-1).items.push({ text: 'API reference', link: '/api/' });
  return groups;
}

/** Guides in docs/ that no group lists. */
export function unlistedGuides() {
  const listed = new Set(GUIDE_GROUPS.flatMap((group) => group.items));
  return readdirSync(docs)
    .filter((file) => file.endsWith('.md') && file !== 'index.md')
    .map((file) => file.slice(0, -3))
    .filter((name) => !listed.has(name));
}
