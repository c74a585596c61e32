// `npm run dev`: the sample issue tracker on a free port and its connector on 127.0.0.1 (port from PORT,
// default 3000), the connector loaded again whenever you save one of its sources; and the dev console, at the
// address printed with its token, to initialize as alice, call the operations, watch the platform's calls and
// the tracker calls under them (secrets masked), expire the session or rate-limit, and save a session as a
// test. The production entry point is main.ts; `npm run demo` walks the lifecycle once.
import { startDevServer } from '@connector-sdk/testing/dev';
import { pino } from 'pino';
import { printWhereToLook, startTelemetry, telemetryOn } from './telemetry.js';
import { startTracker } from './tracker/tracker-server.js';

// With CONNECTOR_OTEL=1, traces and metrics as in the demo (see telemetry.ts).
const telemetry = telemetryOn ? await startTelemetry() : undefined;
const tracker = await startTracker();
const dev = await startDevServer({
  connector: new URL('./connector.ts', import.meta.url),
  exportName: 'trackerConnector',
  config: {
    url: tracker.url,
    username: 'alice',
    password: { value: 'wonderland', sensitive: true },
    options: '{"defaultProject":"DEMO"}',
  },
  handlerOptions: {
    logger: pino({ level: process.env.LOG_LEVEL ?? 'info' }),
    // The sample tracker runs on this machine: the dev server opts in to its address, which a deployed
    // connector never reaches unless its operator allows it.
    egress: { allow: [new URL(tracker.url).hostname] },
  },
});
console.log(
  `The sample tracker runs at ${tracker.url} (user alice). Stop with Ctrl+C.`,
);
if (telemetry) printWhereToLook(telemetry);

for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(
    signal,
    () =>
      void Promise.all([dev.close(), tracker.close()]).then(() =>
        process.exit(0),
      ),
  );
