import { connector, logger } from './shared.js';
// #region snippet
import { serve } from '@connector-sdk/node';

const running = await serve(connector, { port: 3000, host: '127.0.0.1', logger });
process.once('SIGTERM', () => void running.close()); // finishes in-flight requests first
// #endregion snippet
