// The production entry point (`npm start`; `node dist/main.js` once built). It serves the connector and nothing
// else: the end system is whatever URL the platform's initialize names. Settings come from the environment:
//   HOST       the address to listen on (default 127.0.0.1; 0.0.0.0 in a container)
//   PORT       the port (default 3000)
//   LOG_LEVEL  pino's level (default info)
//   CONNECTOR_OTEL=1  OpenTelemetry traces and metrics (telemetry.ts: metrics on OTEL_EXPORTER_PROMETHEUS_PORT,
//              default 9464; traces by the standard OTEL_* variables)
//   CONNECTOR_SDK_SESSION_KEY  the key that signs sessions (32+ characters; several instances share one).
//              Without it each process makes its own, and a restart ends every session (401, initialize again).
// SIGTERM (or Ctrl+C) stops taking connections and lets the requests in flight finish before the process exits.
// Send it to node itself: in a container run `node dist/main.js`, not `npm start`, which does not pass it on.
import { serve } from '@connector-sdk/node';
import { pino } from 'pino';
import { trackerConnector } from './connector.js';
import { startTelemetry, telemetryOn } from './telemetry.js';

const logger = pino({ level: process.env.LOG_LEVEL ?? 'info' });
const host = process.env.HOST ?? '127.0.0.1';
const port = Number(process.env.PORT ?? 3000);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  logger.fatal(
    { PORT: process.env.PORT },
    'PORT must be a port number (0 to 65535)',
  );
  process.exit(1);
}

const telemetry = telemetryOn ? await startTelemetry() : undefined;
if (telemetry)
  logger.info({ metrics: telemetry.metricsUrl }, 'OpenTelemetry on');
const running = await serve(trackerConnector, { host, port, logger }).catch(
  (error: unknown) => {
    logger.fatal({ err: error, host, port }, 'could not listen');
    process.exit(1);
  },
);
logger.info({ url: `${running.url}/sdk/api/1.0` }, 'connector listening');

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    logger.info({ signal }, 'stopping');
    void running
      .close()
      .then(() => telemetry?.close())
      .then(() => process.exit(0));
  });
}
