// The logging guide's pino set-up, type-checked (not run: it listens on a port).
// #region pino
import { serve } from '@connector-sdk/node';
import { pino } from 'pino';
import { notesConnector } from './connector.js';

const logger = pino({ level: process.env.LOG_LEVEL ?? 'info' });
await serve(notesConnector, { port: 3000, logger });
// #endregion pino
