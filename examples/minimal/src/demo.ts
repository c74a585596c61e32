// Starts the connector on 127.0.0.1 (port from PORT, default 3000) and walks through what the platform does:
// discover, initialize, later calls with the replayed session, a call without a session (401), a validation
// error, cleanup. Sensitive values are masked. Then it keeps serving for your own curl calls; pass --once to
// stop after the walk-through.
import { serve } from '@connector-sdk/node';
import { notesConnector } from './connector.js';
import { NotesService } from './notes-service.js';

const running = await serve(notesConnector(new NotesService()), {
  port: Number(process.env.PORT ?? 3000),
});
const base = `${running.url}/sdk/api/1.0`;
interface Entry {
  key: string;
  value: string;
  sensitive: boolean;
}
const masked = new Set<string>();
const surprises: string[] = [];
const mask = (text: string) =>
  [...masked].reduce((out, value) => out.replaceAll(value, '***'), text);

async function call(
  method: string,
  path: string,
  expected: number,
  options: { body?: unknown; headers?: Record<string, string> } = {},
) {
  console.log(`\n→ ${method} ${path}`);
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...options.headers },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const body = (await response.json()) as unknown;
  // Initialize answers a list of entries: mask the sensitive ones, as the platform keeps them out of its logs.
  if (Array.isArray(body))
    for (const entry of body as Entry[]) if (entry.sensitive) masked.add(entry.value);
  console.log(`← ${response.status} ${mask(JSON.stringify(body))}`);
  if (response.status !== expected)
    surprises.push(`${method} ${path}: ${response.status}, expected ${expected}`);
  return body;
}

const configuration = [
  { key: 'url', value: 'https://notes.example', sensitive: false },
  { key: 'username', value: 'alice', sensitive: false },
  { key: 'password', value: 'wonderland', sensitive: true },
  { key: 'options', value: '{"signature":"Alice"}', sensitive: false },
  { key: 'suppressNotification', value: '1', sensitive: false },
];
masked.add('wonderland');

await call('GET', '/discover', 200);
const entries = (await call('POST', '/initialize/demo-session?systemId=demo-system', 200, {
  body: configuration,
})) as Entry[];
const session = Object.fromEntries(entries.map((entry) => [entry.key, entry.value]));

await call('GET', '/me', 200, { headers: session });
await call('POST', '/notes', 200, { headers: session, body: { text: 'Hello from the platform' } });
await call('GET', '/notes/1', 200, { headers: session });
await call('GET', '/notes/99', 404, { headers: session });
await call('GET', '/me', 401);
await call('POST', '/notes', 400, { headers: session, body: { text: '' } });
await call('POST', '/initialize/demo-session?systemId=demo-system', 400, {
  body: [{ key: 'url', value: 'not a url', sensitive: false }, ...configuration.slice(1)],
});
await call('POST', '/cleanup/demo-session?systemId=demo-system&cleanupGlobalCache=true', 200, {
  headers: session,
});

if (surprises.length > 0) {
  console.error(`\nUnexpected answers:\n  ${surprises.join('\n  ')}`);
  process.exitCode = 1;
}
if (process.argv.includes('--once')) {
  await running.close();
} else {
  console.log(`\nThe connector keeps serving at ${base} (Ctrl-C to stop). Try:`);
  console.log(`  curl ${base}/discover`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void running.close().then(() => process.exit(0)));
  }
}
