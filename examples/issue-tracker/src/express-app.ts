import { connectorMiddleware } from '@connector-sdk/express';
import express, { type Express } from 'express';
import type { Logger } from 'pino';
import { trackerConnector } from './connector.js';

/**
 * An existing Express app that also serves the tracker connector: its own routes and middleware stay as they
 * are, and the connector answers under `/connectors/tracker/1.0`.
 */
export function createApp(logger: Logger): Express {
  const app = express();
  app.disable('x-powered-by');
  app.get('/health', (_req, res) => {
    res.json({ ok: true });
  });
  // The app parses JSON for its own routes; the connector reads the parsed body and keeps its contract errors.
  app.use(express.json({ limit: '1mb' }));
  app.post('/echo', (req, res) => {
    res.json(req.body);
  });
  app.use(
    '/connectors/tracker',
    connectorMiddleware(trackerConnector, { logger }),
  );
  return app;
}
