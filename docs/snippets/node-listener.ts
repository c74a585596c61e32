import type { ServerOptions } from 'node:https';
import { connector, logger } from './shared.js';

declare const tlsOptions: ServerOptions;
// #region snippet
import { createServer } from 'node:https';
import { createRequestListener } from '@connector-sdk/node';

createServer(tlsOptions, createRequestListener(connector, { logger })).listen(8443);
// #endregion snippet
