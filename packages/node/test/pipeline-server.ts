// A connector served by serve() with default options, for measuring it in a process of its own (see
// measure-pipelining.mjs, which runs it with `--max-old-space-size=1024`): prints `{"port":…}` once listening,
// then every 250 ms `{"rss":…,"heapUsed":…,"requests":…,"connections":…}` (bytes; requests Node has parsed so
// far; connections open now).
import { serve } from '../src/index.js';
import { bearerConnector } from './bearer-connector.js';

const running = await serve(bearerConnector(), { port: 0 });
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
