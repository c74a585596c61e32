// Fails the docs build when the site's search stops finding what a reader looks for: it loads the search index
// VitePress built (docs-site/assets/chunks/@localSearchIndexroot.*.js) into MiniSearch with the options the
// search box uses (VitePress's VPLocalSearchBox.vue: fuzzy 0.2, prefix, boosts; ours, search-options.mjs), and checks that each query
// below lists each of its sections among the first results, guides and API reference ranked together.
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { SEARCH_OPTIONS } from './search-options.mjs';

const root = resolve(import.meta.dirname, '../..');
const chunks = join(root, 'docs-site/assets/chunks');

/** A query, and the sections (page#anchor) that must be among its first `within` results. */
const EXPECTED = [
  {
    query: 'retry-after',
    within: 3,
    sections: ['/platform-errors.html#the-wait-header', '/troubleshooting.html#rate_limited-403'],
  },
  { query: 'RATE_LIMITED', within: 3, sections: ['/troubleshooting.html#rate_limited-403'] },
  { query: 'wait header', within: 5, sections: ['/platform-errors.html#the-wait-header'] },
  { query: 'RateLimitedError', within: 3, sections: ['/api/@connector-sdk/core/classes/RateLimitedError.html'] },
  // What readers type, each with the guide section that answers it.
  { query: 'cassette', within: 3, sections: ['/testing.html#cassettes-recorded-end-systems'] },
  {
    query: 'access key',
    within: 3,
    sections: ['/security-model.html#who-may-call-a-connector-networks-and-the-access-key'],
  },
  { query: 'egress', within: 3, sections: ['/end-system-client.html#where-it-may-connect-the-egress-policy'] },
  { query: 'redis cluster', within: 3, sections: ['/deploying.html#redis-topologies-one-node-cluster-sentinel'] },
  { query: 'opentelemetry', within: 3, sections: ['/observability.html#opentelemetry'] },
  { query: 'upload a file', within: 3, sections: ['/platform-attachments.html#attachments'] },
  { query: 'session expired', within: 3, sections: ['/troubleshooting.html#session_expired-401'] },
  { query: 'rate limit', within: 3, sections: ['/errors-sessions-secrets.html#rate-limits'] },
  {
    query: 'checkSession',
    within: 3,
    sections: ['/errors-sessions-secrets.html#sessions-that-end-without-a-401-checksession'],
  },
  { query: 'record', within: 3, sections: ['/testing.html#cassettes-recorded-end-systems'] },
  { query: 'scaffold', within: 3, sections: ['/from-scaffold-to-end-system.html'] },
  { query: 'dev console', within: 3, sections: ['/dev-loop.html'] },
  // The re-exports of ky the end-system client throws have pages of their own, under the subpath's short URL.
  { query: 'HTTPError', within: 3, sections: ['/api/@connector-sdk/core/http/variables/HTTPError.html'] },
  { query: 'TimeoutError', within: 3, sections: ['/api/@connector-sdk/core/http/variables/TimeoutError.html'] },
];

// MiniSearch is VitePress's dependency, resolved from it as its search box does.
const require = createRequire(createRequire(import.meta.url).resolve('vitepress'));
const { default: MiniSearch } = await import(require.resolve('minisearch'));

const file = readdirSync(chunks).find((name) => name.startsWith('@localSearchIndexroot.'));
if (!file) {
  console.error('docs: no search index in docs-site/assets/chunks: was the site built with local search?');
  process.exit(1);
}
// The chunk is `const e='<json>';export{e as default};`.
const { default: json } = await import(join(chunks, file));
const index = MiniSearch.loadJSON(json, {
  fields: ['title', 'titles', 'text'],
  storeFields: ['title', 'titles'],
  searchOptions: { fuzzy: 0.2, prefix: true, boost: { title: 4, text: 2, titles: 1 }, ...SEARCH_OPTIONS },
});

const problems = [];
for (const { query, within, sections } of EXPECTED) {
  const ids = index.search(query).slice(0, within).map((result) => result.id);
  for (const section of sections) {
    const found = ids.some((id) => id === section || id.startsWith(`${section}#`));
    if (!found) problems.push(`"${query}" does not list ${section} in its first ${within}:\n  ${ids.join('\n  ')}`);
  }
}
if (problems.length > 0) {
  console.error(`docs: search misses what readers look for:\n${problems.join('\n')}`);
  process.exit(1);
}
console.log(`docs: search finds the expected sections for ${EXPECTED.length} queries`);
