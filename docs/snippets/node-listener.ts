// #region snippet
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { createRequestListener } from '@connector-sdk/node';
import pino from 'pino';
import { notesConnector } from './connector.js';

// Your certificate and key (placeholders: use your own paths).
const tls = {
  cert: readFileSync('tls/cert.pem'),
  key: readFileSync('tls/key.pem'),
};
createServer(
  tls,
  createRequestListener(notesConnector, { logger: pino() }),
).listen(8443);
// #endregion snippet
