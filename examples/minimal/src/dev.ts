// `npm run dev`: the fake notes API and the connector, both on 127.0.0.1, to try the connector by hand before
// pointing it at the real API. Prints the configuration to initialize with and how to drive the lifecycle with
// the testing kit's CLI. Ctrl+C stops both.
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@connector-sdk/node';
import { pino } from 'pino';
import { startFakeNotesApi } from '../test/fake-notes-api.js';
import { notesConnector } from './connector.js';

const api = await startFakeNotesApi();
const connector = await serve(notesConnector, {
  port: Number(process.env.PORT ?? 3000),
  logger: pino({ level: process.env.LOG_LEVEL ?? 'info' }),
  // The fake runs on this machine: the dev server opts in to its address, which the deployed connector
  // (src/main.ts) never reaches unless its operator allows it (CONNECTOR_SDK_EGRESS_ALLOW).
  egress: { allow: [new URL(api.url).hostname] },
});
const configFile = join(tmpdir(), `notes-connector-config-${process.pid}.json`);
writeFileSync(
  configFile,
  JSON.stringify([
    { key: 'url', value: api.url, sensitive: false },
    { key: 'username', value: 'alice', sensitive: false },
    { key: 'password', value: 'wonderland', sensitive: true },
  ]),
);
console.log(`
The fake notes API runs at ${api.url} (user alice, password wonderland).
The connector runs at ${connector.url}/sdk/api/1.0. Walk it through as the platform does:

  npx connector-sdk-testing simulate --url ${connector.url} --config ${configFile} \\
    --call 'POST /notes {"text":"Hello"}' --call 'GET /notes'

Stop with Ctrl+C.`);

for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    void Promise.all([connector.close(), api.close()]).then(() => process.exit(0));
  });
