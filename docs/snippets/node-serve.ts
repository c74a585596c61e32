// #region snippet
import { serve } from '@connector-sdk/node';
import pino from 'pino';
import { connector } from './connector.js';

const running = await serve(connector, { port: 3000, host: '127.0.0.1', logger: pino() });
process.once('SIGTERM', () => void running.close()); // finishes in-flight requests first
// #endregion snippet
