// A connector served by serve() with default options, for measuring it in a process of its own (see
// measure-pipelining.mjs, which runs it with `--max-old-space-size=1024`): prints `{"port":…}` once listening,
// then every 250 ms `{"rss":…,"heapUsed":…,"requests":…,"connections":…}` (bytes; requests Node has parsed so
// far; connections open now).
import { defineConnector, field, secret } from '@connector-sdk/core';
import { serve } from '../src/index.js';

const connector = defineConnector({
  name: 'measured',
  version: '1.0.0',
  config: { password: field.secret() },
  session: { Authorization: field.secret() },
  initialize: ({ config }) => ({ Authorization: secret(`Bearer ${config.password}`) }),
  operations: ({ get }) => ({
    whoami: get('/whoami', ({ session }) => ({ signedIn: session.Authorization.length > 7 })),
  }),
});

const running = await serve(connector, { port: 0 });
process.stdout.write(`${JSON.stringify({ port: running.port })}\n`);
let requests = 0;
running.server.on('request', () => requests++);
setInterval(() => {
  const { rss, heapUsed } = process.memoryUsage();
  running.server.getConnections((_error, connections) =>
    process.stdout.write(`${JSON.stringify({ rss, heapUsed, requests, connections })}\n`),
  );
}, 250).unref();
process.once('SIGTERM', () => void running.close().then(() => process.exit(0)));
