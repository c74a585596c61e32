// @connector-sdk/express: the connector mounted at the versioned base of an Express 5 app.
import { connectorMiddleware } from '@connector-sdk/express';
import express from 'express';
import { BASE } from '../scenarios.mjs';
import { BENCH_EGRESS, connector } from '../connector.mjs';
import { BENCH_SESSION_KEY } from '../session-mac.mjs';
import { listen } from './listen.mjs';

/** @param {{ port: number }} options */
export function start({ port }) {
  const app = express();
  app.disable('x-powered-by');
  app.use(
    BASE,
    connectorMiddleware(connector, { sessionKey: BENCH_SESSION_KEY, egress: BENCH_EGRESS }),
  );
  return listen(app, port);
}
