// #region snippet
import { serve } from '@connector-sdk/node';
import pino from 'pino';
import { notesConnector } from './connector.js';

const running = await serve(notesConnector, {
  port: 3000,
  host: '127.0.0.1',
  logger: pino(),
});
// finishes in-flight requests first
process.once('SIGTERM', () => void running.close());
// #endregion snippet
