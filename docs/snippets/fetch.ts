import { Hono } from 'hono';
import { connector, logger } from './shared.js';

const app = new Hono();
// #region snippet
import { createFetchHandler } from '@connector-sdk/fetch';

const handler = createFetchHandler(connector, { logger });

export default { fetch: handler }; // a server that calls fetch(request)

app.all('/sdk/*', (c) => handler(c.req.raw, c.env)); // in a Hono app (c.env: see the path rule)
// #endregion snippet
