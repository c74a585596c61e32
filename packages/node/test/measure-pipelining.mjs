// The full-scale measurement of a pipelining flood, too heavy for CI: `node packages/node/test/measure-pipelining.mjs
// [connections] [requests] [seconds]` (1,000, 1,000 and 20 by default) serves a connector with serve()'s defaults
// in a process of its own with a 1 GB heap (pipeline-server.ts, through tsx), floods it from another
// (pipeline-flood.mjs: every connection pipelines `requests` GET /discover and reads nothing), and meanwhile
// calls as the platform (discover, then initialize, each on a new connection, every 500 ms, 10 s patience). It
// prints one line: the calls made and answered 200, what failed, the server's peak RSS (VmHWM, Linux) and
// whether it died. Set NODE_BIN to measure another Node.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const [connections = 1_000, requests = 1_000, seconds = 20] = process.argv.slice(2).map(Number);
const here = dirname(fileURLToPath(import.meta.url));
const tsx = join(
  dirname(createRequire(join(here, '../../testing/package.json')).resolve('tsx/package.json')),
  'dist/loader.mjs',
);
const node = process.env.NODE_BIN ?? process.execPath;
const server = spawn(
  node,
  [
    '--max-old-space-size=1024',
    '--conditions=@connector-sdk/source',
    '--import',
    tsx,
    join(here, 'pipeline-server.ts'),
  ],
  { cwd: join(here, '..'), stdio: ['ignore', 'pipe', 'pipe'] },
);
let died = null;
let errors = '';
let parsed = 0;
server.stderr.on('data', (chunk) => (errors = (errors + chunk).slice(-4_000)));
server.on('exit', (code, signal) => (died = { code, signal }));
const port = await new Promise((resolve) =>
  createInterface({ input: server.stdout }).on('line', (line) => {
    const sample = JSON.parse(line);
    if (sample.port) resolve(sample.port);
    else parsed = sample.requests;
  }),
);
const flood = spawn(
  'sh',
  [
    '-c',
    `ulimit -n ${connections + 256} && exec "$0" "$@"`,
    node,
    join(here, 'pipeline-flood.mjs'),
    `${port}`,
    `${connections}`,
    `${requests}`,
  ],
  { stdio: ['pipe', 'ignore', 'inherit'] },
);

function call(path, method = 'GET', body = undefined) {
  return new Promise((resolve) => {
    const req = request(`http://127.0.0.1:${port}/sdk/api/1.0${path}`, {
      method,
      agent: false,
      timeout: 10_000,
      headers: body ? { 'content-type': 'application/json' } : {},
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
      res.on('error', () => resolve('cut off'));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (error) => resolve(error.code ?? error.message));
    req.end(body);
  });
}

const statuses = [];
const started = Date.now();
const entries = JSON.stringify([{ key: 'password', value: 'measured-1', sensitive: true }]);
while (Date.now() - started < seconds * 1_000 && died === null) {
  const round = Date.now();
  statuses.push(await call('/discover'));
  statuses.push(await call('/initialize/s?systemId=x', 'POST', entries));
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, 500 - (Date.now() - round))));
}
let peakRssMb = 'unknown';
try {
  const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
  peakRssMb = Math.round(Number(/VmHWM:\s+(\d+)/.exec(status)?.[1]) / 1024);
} catch {
  // Not Linux, or the server is gone.
}
const failed = {};
for (const status of statuses) if (status !== 200) failed[status] = (failed[status] ?? 0) + 1;
process.stdout.write(
  `${JSON.stringify({
    node: node === process.execPath ? process.version : node,
    connections,
    requests,
    calls: statuses.length,
    answered200: statuses.filter((status) => status === 200).length,
    failed,
    requestsParsed: parsed,
    peakRssMb,
    died,
    outOfMemory: /heap out of memory/.test(errors),
  })}\n`,
);
flood.kill('SIGKILL');
server.kill('SIGKILL');
process.exit(0);
