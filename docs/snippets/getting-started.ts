import { connector, logger } from './shared.js';
// #region serve
import { serve } from '@connector-sdk/node';

const running = await serve(connector, { port: Number(process.env.PORT ?? 3000), logger });
process.once('SIGTERM', () => void running.close());
// #endregion serve
