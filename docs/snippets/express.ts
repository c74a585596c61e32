// #region snippet
import express from 'express';
import { connectorMiddleware } from '@connector-sdk/express';
import pino from 'pino';
import { connector } from './connector.js';

const app = express();
app.use('/sdk/api/1.0', connectorMiddleware(connector, { logger: pino() }));
app.listen(3000, '127.0.0.1');
// #endregion snippet
