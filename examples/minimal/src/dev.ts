// `npm run dev`: the fake notes API and the connector, both on 127.0.0.1, to try the connector by hand before
// pointing it at the real API. The connector reloads when you save one of its sources (sessions survive; the
// console's last scenario runs again and the terminal shows what changed), and the dev console, at the address
// printed with its token, initializes with the configuration below, calls the operations, shows the platform's
// calls and the end-system calls under them with secrets masked, and saves a session as a test.
// Ctrl+C stops both.
// #region dev-server
import { startDevServer } from '@connector-sdk/testing/dev';
import { startFakeNotesApi } from '../test/fake-notes-api.js';

const api = await startFakeNotesApi();
const dev = await startDevServer({
  connector: new URL('./connector.ts', import.meta.url),
  // The configuration the console's form starts with: the fake's user (the
  // password stays out of the page).
  config: {
    url: api.url,
    username: 'alice',
    password: { value: 'wonderland', sensitive: true },
  },
  // The fake runs on this machine: the dev server opts in to its address, which
  // the deployed connector (src/main.ts) never reaches unless its operator
  // allows it (CONNECTOR_SDK_EGRESS_ALLOW).
  handlerOptions: { egress: { allow: [new URL(api.url).hostname] } },
  expireSession: () => api.expireTokens(),
});
console.log(
  `The fake notes API runs at ${api.url} (user alice). Stop with Ctrl+C.`,
);
// #endregion dev-server

for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    void Promise.all([dev.close(), api.close()]).then(() => process.exit(0));
  });
