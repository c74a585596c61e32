// #region snippet
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createFetchHandler } from '@connector-sdk/fetch';
import pino from 'pino';
import { notesConnector } from './connector.js';

const handler = createFetchHandler(notesConnector, { logger: pino() });

// In a Hono app; on Node, c.env carries the raw request target for the path
// rule (below).
const app = new Hono();
app.all('/sdk/*', (c) => handler(c.req.raw, c.env));
serve({ fetch: app.fetch, port: 3000, hostname: '127.0.0.1' });
// #endregion snippet
