// Soak: a connector served by the node binding (as built, from dist) takes a bounded stream of mixed traffic
// from many keep-alive connections: good and bad initializes, later calls with and without a session, calls
// that reach a local end system, malformed, oversized and too deeply nested bodies, unknown routes, wrong
// methods, cleanups, paths the path rule refuses, 32 KiB values cached past the store's byte budget, calls the
// egress policy refuses; with the bounds against strangers (ARCHITECTURE.md, D15: bodies in flight,
// connections, lingering close) set low. It then checks that every answer had the expected status, that memory
// after the run is about what it was after warm-up, and that sockets, servers and timers are back to where they
// started.
//
//   pnpm build && pnpm soak [--requests 100000] [--connections 50]
//
// Exits 1 on any unexpected status, on memory growth, on a handle left open, or when it did not finish at all.
// Its time is reported, never judged (speed is the bench's to measure): the time limit is only a backstop for
// a run that hangs, far past what a busy two-core machine takes (193 s was seen with other test suites running
// beside it).
import { existsSync } from 'node:fs';
import { Agent, createServer, request } from 'node:http';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

const root = resolve(import.meta.dirname, '..');
const dist = (path) => resolve(root, 'packages', path);
if (!existsSync(dist('node/dist/index.js')) || !existsSync(dist('core/dist/http/index.js'))) {
  console.error('soak: run `pnpm build` first (the soak runs the packages as built)');
  process.exit(1);
}
if (typeof globalThis.gc !== 'function') {
  console.error('soak: run with `node --expose-gc` (pnpm soak does)');
  process.exit(1);
}
const { defineConnector, field, secret, z, MemoryStore, UnauthenticatedError } = await import(
  dist('core/dist/index.js')
);
const { createEndSystemClient } = await import(dist('core/dist/http/index.js'));
const { serve } = await import(dist('node/dist/index.js'));

const { values: args } = parseArgs({
  options: {
    requests: { type: 'string', default: '100000' },
    connections: { type: 'string', default: '50' },
  },
});
const TOTAL = Number(args.requests);
const CONNECTIONS = Number(args.connections);
const WARM_UP = Math.min(5_000, Math.floor(TOTAL / 10));
const TIME_LIMIT_MS = 900_000;
/** Heap growth tolerated between warm-up and the end, after a full GC (a retained end-system client made +20 MB). */
const MAX_HEAP_GROWTH_MB = 8;
const BODY_LIMIT = 16 * 1024;

const handles = () => {
  const counts = { TCPSocketWrap: 0, TCPServerWrap: 0, Timeout: 0 };
  for (const name of process.getActiveResourcesInfo()) if (name in counts) counts[name]++;
  return counts;
};
const settle = async () => {
  for (let i = 0; i < 5; i++) {
    await new Promise((done) => setTimeout(done, 50));
    globalThis.gc();
  }
};
const mb = (bytes) => Math.round((bytes / 1024 / 1024) * 10) / 10;
const handlesBefore = handles();

// The end system: answers quickly, 404 for a missing item, echoes nothing secret.
const endSystem = createServer((req, res) => {
  const missing = req.url?.endsWith('/missing');
  res.writeHead(missing ? 404 : 200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(missing ? { code: 'GONE', message: 'No such item' } : { id: req.url }));
});
await new Promise((done) => endSystem.listen(0, '127.0.0.1', done));
const endUrl = `http://127.0.0.1:${endSystem.address().port}`;

const PASSWORD = 's0ak-pa55word';
const CURSOR = 'c'.repeat(32 * 1024);
let remembered = 0;
const connector = defineConnector({
  name: 'soak',
  version: '1.0.0',
  config: { url: field.url(), username: field.string(), password: field.secret() },
  session: { Authorization: field.secret(), 'X-End-Url': field.url() },
  initialize: ({ config }) => {
    if (config.password !== PASSWORD) throw new UnauthenticatedError('Login failed');
    return { Authorization: secret('Bearer soak-token'), 'X-End-Url': config.url };
  },
  operations: ({ get, post }) => ({
    whoami: get('/whoami', ({ session }) => ({ url: session['X-End-Url'] })),
    echo: post('/echo', { body: z.unknown() }, ({ body }) => ({ body })),
    // The cursor pattern: a large value cached per call, which the store's byte budget keeps bounded.
    remember: post('/remember', { body: z.unknown() }, async ({ sessionCache }) => {
      await sessionCache.set(`cursor-${remembered++ % 1_000}`, CURSOR);
      return { ok: true };
    }),
    // A configured URL pointing at the cloud metadata address: refused by the egress policy, never called.
    metadata: get('/metadata', ({ signal, log }) =>
      createEndSystemClient({ baseUrl: 'http://169.254.169.254', signal, log })
        .get('latest/meta-data/')
        .json(),
    ),
    item: get('/items/:id', ({ session, params, signal, log }) =>
      createEndSystemClient({
        baseUrl: endUrl,
        headers: { Authorization: session.Authorization },
        signal,
        log,
      })
        .get(`items/${params.id}`)
        .json(),
    ),
  }),
});

const logged = { debug: 0, info: 0, warn: 0, error: 0 };
const logger = Object.fromEntries(
  Object.keys(logged).map((level) => [level, () => logged[level]++]),
);
// The bounds against strangers (D15), set low enough that the soak's traffic runs against them: bodies in
// flight, connections, the lingering close after refused bodies, and a store smaller than the values cached
// over the run.
const running = await serve(connector, {
  port: 0,
  logger,
  // The soak's end system runs on this machine: the operator's allow list opens it (ARCHITECTURE.md, D9).
  egress: { allow: ['127.0.0.1'] },
  bodyLimit: BODY_LIMIT,
  maxBodyBytesInFlight: CONNECTIONS * BODY_LIMIT,
  maxConnections: CONNECTIONS * 2,
  lingerTimeoutMs: 1_000,
  store: new MemoryStore({ maxBytes: 4 * 1024 * 1024 }),
});
const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });

const BASE = '/sdk/api/1.0';
const entries = (password) =>
  JSON.stringify([
    { key: 'url', value: endUrl, sensitive: false },
    { key: 'username', value: 'soak', sensitive: false },
    { key: 'password', value: password, sensitive: true },
  ]);
// A real session, as the platform gets it: later calls are verified against the SDK's signature.
const session = await (async () => {
  const response = await fetch(`${running.url}${BASE}/initialize/s-1?systemId=sys-1`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: entries(PASSWORD),
  });
  if (response.status !== 200) throw new Error(`soak: initialize answered ${response.status}`);
  const answered = await response.json();
  return Object.fromEntries(answered.map((entry) => [entry.key.toLowerCase(), entry.value]));
})();
const json = { 'content-type': 'application/json' };
const deep = `${'['.repeat(1_000)}${']'.repeat(1_000)}`;
const oversized = JSON.stringify({ fill: 'x'.repeat(BODY_LIMIT + 1) });
/** The mix, one entry per kind of call: [name, method, path, headers, body, expected status]. */
const mix = [
  ['later call', 'GET', '/whoami', session, undefined, 200],
  ['later call', 'GET', '/whoami', session, undefined, 200],
  ['later call', 'GET', '/whoami', session, undefined, 200],
  ['later call', 'GET', '/whoami', session, undefined, 200],
  ['end-system call', 'GET', '/items/42', session, undefined, 200],
  ['end-system 404', 'GET', '/items/missing', session, undefined, 404],
  ['initialize', 'POST', '/initialize/s-1?systemId=sys-1', json, entries(PASSWORD), 200],
  [
    'initialize, wrong password',
    'POST',
    '/initialize/s-1?systemId=sys-1',
    json,
    entries('no'),
    401,
  ],
  ['initialize, malformed', 'POST', '/initialize/s-1?systemId=sys-1', json, '[{"key":', 400],
  ['no session', 'GET', '/whoami', {}, undefined, 401],
  ['garbage session', 'GET', '/whoami', { ...session, 'x-end-url': '%%' }, undefined, 401],
  ['echo', 'POST', '/echo', { ...session, ...json }, '{"a":[1,2,3]}', 200],
  ['too deep', 'POST', '/echo', { ...session, ...json }, deep, 400],
  ['too large', 'POST', '/echo', { ...session, ...json }, oversized, 413],
  ['unknown route', 'GET', '/nothing', {}, undefined, 404],
  ['path with an encoded slash', 'GET', '/items/..%2f..%2fdiscover', session, undefined, 400],
  // (A dot segment cannot be sent from here: the client's URL parser resolves it before sending.)
  ['path with an encoded backslash', 'GET', '/items/a%5Cb', session, undefined, 400],
  ['cache a 32 KiB value', 'POST', '/remember', { ...session, ...json }, '{}', 200],
  ['egress refused', 'GET', '/metadata', session, undefined, 502],
  ['wrong method', 'DELETE', '/discover', {}, undefined, 405],
  ['cleanup', 'POST', '/cleanup/s-1?systemId=sys-1', session, undefined, 200],
  ['discover', 'GET', '/discover', {}, undefined, 200],
];

function call([, method, path, headers, body]) {
  return new Promise((done) => {
    const req = request(
      `${running.url}${BASE}${path}`,
      {
        method,
        agent,
        headers:
          body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => done(res.statusCode));
        res.on('error', () => done('response error'));
      },
    );
    req.on('error', (error) => done(error.code ?? 'request error'));
    req.end(body);
  });
}

const statuses = new Map();
const unexpected = new Map();
let sent = 0;
async function worker(limit) {
  while (sent < limit) {
    const kind = mix[sent++ % mix.length];
    const status = await call(kind);
    const key = `${kind[0]} → ${status}`;
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    if (status !== kind[5]) unexpected.set(key, (unexpected.get(key) ?? 0) + 1);
  }
}
const run = (limit) => Promise.all(Array.from({ length: CONNECTIONS }, () => worker(limit)));

await run(WARM_UP);
await settle();
const before = process.memoryUsage();
const started = performance.now();
await run(TOTAL);
const seconds = (performance.now() - started) / 1000;
await settle();
const after = process.memoryUsage();

agent.destroy();
await settle();
const open = await new Promise((done) => running.server.getConnections((_e, count) => done(count)));
await running.close();
await new Promise((done) => endSystem.close(done));
endSystem.closeAllConnections();
await settle();
const handlesAfter = handles();

const soaked = TOTAL - WARM_UP;
const growth = mb(after.heapUsed - before.heapUsed);
console.log(`soak: ${soaked} requests (+${WARM_UP} warm-up) over ${CONNECTIONS} connections`);
console.log(`soak: ${seconds.toFixed(1)} s, ${Math.round(soaked / seconds)} requests/s`);
console.log(
  `soak: statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}, log lines ${JSON.stringify(logged)}`,
);
console.log(
  `soak: heap ${mb(before.heapUsed)} MB → ${mb(after.heapUsed)} MB (${growth >= 0 ? '+' : ''}${growth} MB), rss ${mb(before.rss)} MB → ${mb(after.rss)} MB`,
);
console.log(
  `soak: handles before ${JSON.stringify(handlesBefore)}, after ${JSON.stringify(handlesAfter)}; connections open at the end ${open}`,
);

const failures = [];
if (unexpected.size > 0)
  failures.push(`unexpected statuses ${JSON.stringify(Object.fromEntries(unexpected))}`);
if (growth > MAX_HEAP_GROWTH_MB)
  failures.push(`heap grew by ${growth} MB (limit ${MAX_HEAP_GROWTH_MB})`);
for (const [name, count] of Object.entries(handlesAfter)) {
  if (count > handlesBefore[name])
    failures.push(`${count - handlesBefore[name]} ${name} left open`);
}
if (seconds * 1000 > TIME_LIMIT_MS)
  failures.push(`took ${seconds.toFixed(0)} s: past ${TIME_LIMIT_MS / 1000} s it counts as a hang`);
console.log(failures.length === 0 ? 'soak: passed' : `soak: FAILED: ${failures.join('; ')}`);
process.exit(failures.length === 0 ? 0 : 1);
