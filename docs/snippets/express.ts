import { connector, logger } from './shared.js';
// #region snippet
import express from 'express';
import { connectorMiddleware } from '@connector-sdk/express';

const app = express();
app.use('/sdk/api/1.0', connectorMiddleware(connector, { logger }));
// #endregion snippet
