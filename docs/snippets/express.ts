// #region snippet
import express from 'express';
import { connectorMiddleware } from '@connector-sdk/express';
import pino from 'pino';
import { notesConnector } from './connector.js';

const app = express();
app.use(
  '/sdk/api/1.0',
  connectorMiddleware(notesConnector, { logger: pino() }),
);
app.listen(3000, '127.0.0.1');
// #endregion snippet
