// node bench/body-cost.mjs [--rounds 5]: CPU per MB of body for each kind of platform request at its size limit
// and in its costliest shapes, against an ordinary initialize, measured with `process.cpuUsage()` around the
// handler (core's `createHandler`, the body handed over as text as the bindings do; HTTP adds the same cost to
// every kind). Run `pnpm --filter @connector-sdk/core build` first: it loads core's build. For finding the bodies
// that cost the most to refuse or accept; not a budget (`pnpm bench` judges those).
import { parseArgs } from 'node:util';
import { createHandler, defineConnector, field, secret, z } from '@connector-sdk/core';

const { values: args } = parseArgs({
  options: { rounds: { type: 'string', default: '5' }, only: { type: 'string' } },
});
const rounds = Number(args.rounds);

const connector = defineConnector({
  name: 'body-cost',
  version: '1.0.0',
  config: {
    url: field.url().optional(),
    name: field.string().optional(),
    password: field.secret().optional(),
    options: field.json(z.record(z.string(), z.unknown())).optional(),
  },
  session: { Authorization: field.secret() },
  initialize: () => ({ Authorization: secret('Bearer tok-Jb4sN8wLp3Yd') }),
  operations: ({ post, platform }) => ({
    echo: post(
      '/echo',
      { body: z.object({ items: z.array(z.object({ name: z.string() })) }) },
      ({ body }) => ({ count: body.items.length }),
    ),
    searchEntities: platform.searchEntities(() => ({ nextPageLinkSupported: false, entities: [] })),
    createEntity: platform.createEntity(() => ({ fields: { id: '1' } })),
  }),
});
const handle = createHandler(connector, { logger: silent() });

function silent() {
  const nothing = () => undefined;
  return { debug: nothing, info: nothing, warn: nothing, error: nothing };
}

const BASE = '/sdk/api/1.0';
const MiB = 1024 * 1024;
const entry = (key, value, sensitive = false) => ({ key, value, sensitive });
const request = (method, path, query, text, headers = {}) => ({
  method,
  path: `${BASE}${path}`,
  query,
  headers: { 'content-type': 'application/json', ...headers },
  text: () => Promise.resolve(text),
});
const initialize = (text) => request('POST', '/initialize/s-1', 'systemId=sys', text);

const session = await (async () => {
  const answer = await handle(initialize(JSON.stringify([entry('name', 'tenant')])));
  return Object.fromEntries(JSON.parse(answer.body).map((item) => [item.key, item.value]));
})();
const later = (path, query, text) =>
  request(
    'POST',
    path,
    query,
    text,
    Object.fromEntries(Object.entries(session).map(([key, value]) => [key.toLowerCase(), value])),
  );
const search = (query) =>
  later(
    '/entities/issue/search',
    'projectId=p&startIndex=0&maxResults=50',
    JSON.stringify({ query }),
  );

const cases = [
  [
    'an ordinary initialize',
    () =>
      initialize(
        JSON.stringify([
          entry('url', 'https://tracker.example'),
          entry('name', 'jo'),
          entry('password', 'pw-Hq7zR2mK9vXc', true),
        ]),
      ),
  ],
  [
    'initialize, 1,000 plain entries of 1,000 characters',
    () =>
      initialize(
        JSON.stringify(
          Array.from({ length: 1000 }, (_, i) =>
            entry(`k${i}`, `v${i}-`.repeat(200).slice(0, 1000)),
          ),
        ),
      ),
  ],
  [
    'initialize, 1,000 sensitive entries of 1,000 characters',
    () =>
      initialize(
        JSON.stringify(
          Array.from({ length: 1000 }, (_, i) =>
            entry(`k${i}`, `s${i}-`.repeat(200).slice(0, 1000), true),
          ),
        ),
      ),
  ],
  [
    'initialize, 1,000 sensitive entries of 16 characters',
    () =>
      initialize(
        JSON.stringify(
          Array.from({ length: 1000 }, (_, i) =>
            entry(`k${i}`, `secret-${String(i).padStart(9, '0')}`, true),
          ),
        ),
      ),
  ],
  [
    'initialize, one sensitive value of 1 MB',
    () => initialize(JSON.stringify([entry('password', 'p'.repeat(MiB - 100), true)])),
  ],
  [
    'initialize, one sensitive value of 1 MB of varied text',
    () =>
      initialize(
        JSON.stringify([
          entry(
            'password',
            Array.from({ length: (MiB - 100) / 8 }, (_, i) =>
              (i * 2654435761).toString(36).slice(-8),
            ).join(''),
            true,
          ),
        ]),
      ),
  ],
  [
    'initialize, a value of escapes',
    () =>
      initialize(
        `[{"key":"name","value":"${'\\u0041'.repeat((MiB - 100) / 6)}","sensitive":false}]`,
      ),
  ],
  [
    'initialize, a JSON field of 60,000 keys',
    () =>
      initialize(
        JSON.stringify([
          entry(
            'options',
            JSON.stringify(
              Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`k${i}`, i])),
            ),
          ),
        ]),
      ),
  ],
  [
    'initialize, a JSON field nested 300,000 levels',
    () => initialize(JSON.stringify([entry('options', '['.repeat(300_000) + ']'.repeat(300_000))])),
  ],
  [
    'initialize, nested 500,000 levels (refused)',
    () => initialize('['.repeat(500_000) + ']'.repeat(500_000)),
  ],
  [
    'initialize, 1,001 entries (refused)',
    () =>
      initialize(
        JSON.stringify(Array.from({ length: 1001 }, (_, i) => entry(`k${i}`, 'v'.repeat(1000)))),
      ),
  ],
  [
    'later call, 80,000 items',
    () =>
      later(
        '/echo',
        '',
        JSON.stringify({
          items: Array.from({ length: 80_000 }, () => ({ name: 'nnnn' })),
        }),
      ),
  ],
  [
    'later call, 80,000 wrong items (refused)',
    () =>
      later(
        '/echo',
        '',
        JSON.stringify({ items: Array.from({ length: 80_000 }, () => ({ name: 1 })) }),
      ),
  ],
  [
    'later call, an entity of 60,000 fields',
    () =>
      later(
        '/entities/issue',
        'projectId=p',
        JSON.stringify({
          fields: Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`f${i}`, i])),
        }),
      ),
  ],
  [
    'search, 10,000 IN values',
    () =>
      search({
        field: 'id',
        condition: 'IN',
        values: Array.from({ length: 10_000 }, (_, i) => `id-${i}`),
      }),
  ],
  [
    'search, 50,000 IN values (refused)',
    () =>
      search({ field: 'id', condition: 'IN', values: Array.from({ length: 50_000 }, (_, i) => i) }),
  ],
  [
    'search, 1,000 conditions',
    () =>
      search({
        condition: 'AND',
        criterias: Array.from({ length: 999 }, (_, i) => ({
          field: `f${i}`,
          condition: '=',
          value: `v${i}`,
        })),
      }),
  ],
  [
    'search, 20,000 conditions (refused)',
    () =>
      search({
        condition: 'AND',
        criterias: Array.from({ length: 20_000 }, (_, i) => ({
          field: `f${i}`,
          condition: '=',
          value: `v${i}`,
        })),
      }),
  ],
];

const results = [];
for (const [name, make] of cases) {
  if (args.only !== undefined && !name.includes(args.only)) continue;
  const sample = make();
  const bytes = Buffer.byteLength(await sample.text());
  // Warm up, then measure `rounds` calls, each with a body made beforehand.
  for (let i = 0; i < 3; i++) await handle(make());
  const requests = Array.from({ length: rounds }, make);
  let status = 0;
  const before = process.cpuUsage();
  for (const each of requests) status = (await handle(each)).status;
  const used = process.cpuUsage(before);
  const ms = (used.user + used.system) / 1000 / rounds;
  results.push({
    name,
    status,
    kB: Math.round(bytes / 1024),
    'ms/request': ms.toFixed(2),
    'ms/MB': (ms / (bytes / MiB)).toFixed(1),
  });
}
console.table(results);
