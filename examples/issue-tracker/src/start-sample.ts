import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ConnectorServer } from '@connector-sdk/node';
import pino from 'pino';
import { trackerConnector } from './connector.js';
import {
  printWhereToLook,
  startTelemetry,
  telemetryOn,
  type Telemetry,
} from './telemetry.js';
import { startTracker, type RunningTracker } from './tracker/tracker-server.js';
import type { TrackerOptions } from './tracker/tracker-store.js';

/** The sample tracker and its connector, both on 127.0.0.1. */
export interface Sample {
  readonly tracker: RunningTracker;
  readonly connector: ConnectorServer;
  /** Tracing and metrics, when CONNECTOR_OTEL=1. */
  readonly telemetry: Telemetry | undefined;
  close(): Promise<void>;
}

/**
 * Starts the sample tracker on a free port and the connector on `PORT` (default 3000).
 *
 * @param tracker - the tracker's options (accounts, rate limit, token lifetime)
 * @param quiet - leave out the connector's request log lines
 */
export async function startSample(
  tracker: TrackerOptions = {},
  quiet = false,
): Promise<Sample> {
  const port = Number(process.env.PORT ?? 3000);
  const telemetry = telemetryOn ? await startTelemetry() : undefined;
  const running = await startTracker(tracker);
  const connector = await serve(trackerConnector, {
    port,
    host: '127.0.0.1',
    logger: pino({ level: quiet ? 'silent' : 'info' }),
    // The sample tracker runs on this machine: the demo opts in to its address, which a deployed connector
    // never reaches unless its operator allows it.
    egress: { allow: [new URL(running.url).hostname] },
  }).catch(async (error: unknown) => {
    await running.close();
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    console.error(
      `Port ${port} is in use: set PORT to another port (PORT=0 picks a free one).`,
    );
    process.exit(1);
  });
  return {
    tracker: running,
    connector,
    telemetry,
    close: async () => {
      await connector.close();
      await running.close();
      await telemetry?.close();
    },
  };
}

/** Prints how to call the running connector with curl. */
export function printHowToCall({
  tracker,
  connector,
  telemetry,
}: Sample): void {
  const base = `${connector.url}/sdk/api/1.0`;
  const config = JSON.stringify([
    { key: 'url', value: tracker.url, sensitive: false },
    { key: 'username', value: 'alice', sensitive: false },
    { key: 'password', value: 'wonderland', sensitive: true },
    { key: 'options', value: '{"defaultProject":"DEMO"}', sensitive: false },
  ]);
  const configFile = join(tmpdir(), `issue-tracker-config-${process.pid}.json`);
  writeFileSync(configFile, config);
  console.log(`
The sample tracker runs at ${tracker.url} (user alice, password wonderland).
The connector runs at ${base}. Try:

  curl -s ${base}/discover
  curl -s -X POST '${base}/initialize/my-session?systemId=my-tracker' \\
    -H 'content-type: application/json' -d '${config}'

then send every answered entry back as a header, all of them (the SDK signs the session: a call that drops or
changes one answers 401), for example:

  curl -s ${base}/projects/DEMO/issues -H 'Authorization: Bearer <token>' -H 'X-Tracker-Url: ${tracker.url}' \\
    -H 'X-Sdk-System-Id: my-tracker' -H 'X-Sdk-Session-Id: my-session' -H 'X-Sdk-Session-Mac: <mac>'

Or let the platform simulator walk it through (the testing kit's CLI; in the SDK's repository, after pnpm build):

  npx connector-sdk-testing simulate --url ${connector.url} --config ${configFile} \\
    --call 'POST /projects/DEMO/issues {"summary":"From the CLI"}' --call 'GET /projects/DEMO/issues'

Stop with Ctrl+C.`);
  if (telemetry) printWhereToLook(telemetry);
}

/** Closes the sample on Ctrl+C or SIGTERM. */
export function closeOnSignal(sample: Sample): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => void sample.close().then(() => process.exit(0)));
}
