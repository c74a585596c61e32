// #region serve
import { serve } from '@connector-sdk/node';
import pino from 'pino';
import { connector } from './connector.js';

const running = await serve(connector, { port: Number(process.env.PORT ?? 3000), logger: pino() });
process.once('SIGTERM', () => void running.close());
// #endregion serve
