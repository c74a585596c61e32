// Serves the Node-RED connector on 127.0.0.1 (port from PORT, default 3000). Point its configuration at a
// Node-RED with adminAuth (see README.md).
import type { LogMethod } from '@connector-sdk/core';
import { serve } from '@connector-sdk/node';
import { nodeRedConnector } from './connector.js';

/** One JSON line per event, as pino would print it; use pino itself in production. */
const at =
  (level: string): LogMethod =>
  (fields, msg) =>
    console.log(
      JSON.stringify({ level, time: new Date().toISOString(), msg, ...fields }),
    );
const logger = {
  debug: () => undefined,
  info: at('info'),
  warn: at('warn'),
  error: at('error'),
};

const running = await serve(nodeRedConnector, {
  port: Number(process.env.PORT ?? 3000),
  logger,
});
console.log(`node-red-connector listening on ${running.url}/sdk/api/1.0`);
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => void running.close().then(() => process.exit(0)));
