// `npm run dev`: the connector on 127.0.0.1 for your end system, to try it by hand. It reads the end system
// from the environment (END_SYSTEM_URL, END_SYSTEM_USER, END_SYSTEM_PASSWORD: see src/end-system-env.ts),
// lets the connector reach that host even when it is on this machine or a private network (and whatever
// CONNECTOR_SDK_EGRESS_ALLOW lists), and prints how to walk the connector through the platform's lifecycle
// with the testing kit's CLI. Without those variables it serves the connector anyway, for public end systems
// only. Ctrl+C stops it.
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@connector-sdk/node';
import { pino } from 'pino';
import { apiConnector } from './connector.js';
import { endSystemFromEnvironment } from './end-system-env.js';

const endSystem = endSystemFromEnvironment();
const configured = !('missing' in endSystem);
const connector = await serve(apiConnector, {
  port: Number(process.env.PORT ?? 3000),
  logger: pino({ level: process.env.LOG_LEVEL ?? 'debug' }),
  // Without the variables, the handler reads CONNECTOR_SDK_EGRESS_ALLOW itself, as in production.
  ...(configured ? { egress: { allow: endSystem.egressAllow } } : {}),
});

let configFile: string | undefined;
if (configured) {
  // The configuration the platform would send, for the CLI; only this user may read it (it holds the password).
  configFile = join(tmpdir(), `connector-config-${process.pid}.json`);
  writeFileSync(
    configFile,
    JSON.stringify({
      url: endSystem.url,
      username: endSystem.username,
      password: { value: endSystem.password, sensitive: true },
    }),
    { mode: 0o600 },
  );
  console.log(`
The connector runs at ${connector.url}/sdk/api/1.0, for ${endSystem.url} as ${endSystem.username}.
It may reach ${endSystem.egressAllow.join(', ')} besides public addresses. Walk it through as the platform does:

  npx connector-sdk-testing simulate --url ${connector.url} --config ${configFile} --call 'GET /me'
  npx connector-sdk-testing conformance --url ${connector.url} --config ${configFile} --operation 'GET /me' \\
    --expire-session 'curl -fsS -X POST -H "Authorization: $SESSION_AUTHORIZATION" "$SESSION_X_API_URL/auth/logout"'

Stop with Ctrl+C.`);
} else {
  console.log(`
The connector runs at ${connector.url}/sdk/api/1.0. Set ${endSystem.missing.join(', ')} to name your end
system: this server then lets the connector reach it and prints how to walk it through.`);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    if (configFile !== undefined) rmSync(configFile, { force: true });
    void connector.close().then(() => process.exit(0));
  });
