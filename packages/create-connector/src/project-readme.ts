import type { TemplateName } from './templates.js';

const ABOUT: Readonly<Record<TemplateName, { about: string; scripts: string; steps: string }>> = {
  minimal: {
    about: `started from its minimal template: a connector for an HTTP API (password login, bearer token,
notes), a small fake of that API for its tests, and a production entry point.`,
    scripts: `npm test           # the conformance kit and the lifecycle, against the fake API
npm run dev        # the fake API and the connector on 127.0.0.1, reloaded on save, and the dev console`,
    steps: `1. \`src/connector.ts\`: the configuration fields, \`initialize\` (log in, answer the session), the operations
   and \`cleanup\`.
2. \`src/notes-api.ts\`: your end system's base URL, how calls authenticate, and which of its errors the
   platform sees as what.
3. \`test/fake-notes-api.ts\`: make the fake answer like your end system (its login, its error bodies, a
   resource or two), so the tests prove your connector without an account.`,
  },
  'issue-tracker': {
    about: `started from its issue-tracker template: a sample end system (\`src/tracker/\`) with token login, expiring
tokens and rate limits, a complete connector for it, lifecycle tests and a demo.`,
    scripts: `npm test           # the conformance kit and the lifecycle, against the sample end system
npm run dev        # the sample end system and the connector on 127.0.0.1, reloaded on save; the dev console
npm run demo       # the whole lifecycle, driven as the platform does, secrets masked`,
    steps: `1. \`src/connector.ts\`: the configuration fields, \`initialize\` (log in, answer the session), the operations
   and \`cleanup\`.
2. \`src/tracker-client.ts\`: how your end system's errors become the platform's (its error shape, a wrong login
   → 401, rate limits → 403 + wait).
3. \`src/tracker/\`: the sample end system. Keep it as a fake for tests, or use \`startFakeEndSystem\` from
   \`@connector-sdk/testing\`, and point the configuration at your real end system.`,
  },
  'rest-api': {
    about: `started from its rest-api template: a connector skeleton for an end system's HTTP API with token login,
and tests that run the conformance kit against your real end system.

Name the end system in the environment (never in a file of the project); \`npm test\` and \`npm run dev\` read
the same variables:

| Variable                     | What it gives                                                                      |
| ---------------------------- | ---------------------------------------------------------------------------------- |
| \`END_SYSTEM_URL\`             | the API's base URL, as a user types it into the platform's form                    |
| \`END_SYSTEM_USER\`            | a user name the end system accepts                                                 |
| \`END_SYSTEM_PASSWORD\`        | that user's password                                                               |
| \`CONNECTOR_SDK_EGRESS_ALLOW\` | more hosts, \`*.domains\` or address ranges the connector may reach, comma-separated |

A deployed connector reaches public addresses only: an end system on this machine or a private network needs
its operator's \`CONNECTOR_SDK_EGRESS_ALLOW\`. The tests and the dev server allow the host of
\`END_SYSTEM_URL\` on their own.`,
    scripts: `END_SYSTEM_URL=https://api.example.com END_SYSTEM_USER=me END_SYSTEM_PASSWORD=… npm test
                   # the conformance kit against that end system; without the variables it skips, saying so
npm run dev        # the connector on 127.0.0.1 for that end system, reloaded on save, and the dev console`,
    steps: `1. \`src/connector.ts\`: the configuration fields, \`initialize\` (your end system's login: its path, its body,
   where the token is in its answer), the operations and \`cleanup\` (its logout).
2. \`src/api-client.ts\`: how calls authenticate, and which of your end system's errors the platform sees as
   what.
3. \`test/connector.test.ts\`: the later call the kit makes with a session (\`GET /me\`), and \`logOut\`, how the
   kit ends a session at your end system. Without a logout or revoke call, wait out a short token lifetime
   instead (\`expireSession: () => sleep(tokenLifetimeMs)\`), or remove it: the kit then skips that check.
4. \`npm run dev\`: the dev console it prints drives the connector against that end system; save a session
   there as a test that replays it offline.`,
  },
  'oauth2-api': {
    about: `started from its oauth2-api template: a connector skeleton for an HTTP API behind OAuth2, logged in by
the SDK's auth kit (a user's password grant, or the client's own credentials; tokens kept sealed in the SDK's
store, renewed before they expire and after a 401, revoked at cleanup), and tests that run the conformance kit
against your real API and authorization server.

Name them in the environment (never in a file of the project); \`npm test\` and \`npm run dev\` read the same
variables:

| Variable                      | What it gives                                                                     |
| ----------------------------- | --------------------------------------------------------------------------------- |
| \`END_SYSTEM_URL\`              | the API's base URL, as a user types it into the platform's form                   |
| \`END_SYSTEM_TOKEN_URL\`        | the authorization server's token endpoint                                         |
| \`END_SYSTEM_CLIENT_ID\`        | the OAuth2 client's id                                                            |
| \`END_SYSTEM_CLIENT_SECRET\`    | that client's secret                                                              |
| \`END_SYSTEM_USER\`, \`END_SYSTEM_PASSWORD\` | a user, for the password grant (without them the client logs in as itself) |
| \`END_SYSTEM_SCOPE\`            | the scope to ask for (optional)                                                   |
| \`END_SYSTEM_REVOCATION_URL\`   | the revocation endpoint (optional)                                                |
| \`CONNECTOR_SDK_EGRESS_ALLOW\`  | more hosts, \`*.domains\` or address ranges the connector may reach, comma-separated |

With several instances, give them a shared store (\`@connector-sdk/redis\`): the tokens live in the store, and
an instance that does not see them answers 401, so the platform logs in again.`,
    scripts: `END_SYSTEM_URL=… END_SYSTEM_TOKEN_URL=… END_SYSTEM_CLIENT_ID=… END_SYSTEM_CLIENT_SECRET=… npm test
                   # the conformance kit against that end system; without the variables it skips, saying so
npm run dev        # the connector on 127.0.0.1 for that end system, reloaded on save, and the dev console`,
    steps: `1. \`src/connector.ts\`: the configuration fields, the login (\`oauth2({ … })\`: the grant, how the client
   authenticates, the scope), the operations and \`cleanup\`. See the SDK's guide "Authentication".
2. \`test/connector.test.ts\`: the later call the kit makes with a session (\`GET /me\`).
3. \`npm run dev\`: the dev console it prints drives the connector against that end system; save a session
   there as a test that replays it offline.`,
  },
  'rest-declarative': {
    about: `started from its rest-declarative template: a declarative connector. The end system's records are
described once in \`src/connector.ts\` (where they are read and written, their fields, how they are searched)
and the platform's operations are made from that description by \`@connector-sdk/core/rest\`; its tests run the
conformance kit against your real end system, named in the environment as for the rest-api template
(\`END_SYSTEM_URL\`, \`END_SYSTEM_USER\`, \`END_SYSTEM_PASSWORD\`, \`CONNECTOR_SDK_EGRESS_ALLOW\`).`,
    scripts: `END_SYSTEM_URL=https://api.example.com END_SYSTEM_USER=me END_SYSTEM_PASSWORD=… npm test
                   # the conformance kit against that end system; without the variables it skips, saying so
npm run dev        # the connector on 127.0.0.1 for that end system, reloaded on save, and the dev console`,
    steps: `1. \`src/connector.ts\`: your end system's record as a zod schema, then its entity type: its paths, its
   fields (\`from\` names where each is in the record; a wrong one is a compile error), how it pages and is
   searched. The guide: docs/declarative-connectors.md of the SDK.
2. \`initialize\` and \`cleanup\`: your end system's login and logout; \`src/api-client.ts\`: which of its
   errors the platform sees as what.
3. \`test/connector.test.ts\`: the search the kit makes with a session, the records its round trip writes,
   and \`logOut\`, how the kit ends a session at your end system.`,
  },
};

/**
 * The README of a new project.
 *
 * @param name - the package name
 * @param template - the template it started from
 * @returns the README's Markdown
 * @internal
 */
export function projectReadme(name: string, template: TemplateName): string {
  const { about, scripts, steps } = ABOUT[template];
  return `# ${name}

A connector built with [Connector SDK](https://github.com/connector-sdk/connector-sdk), ${about}

\`\`\`sh
${scripts}
npm start          # builds, then serves the connector alone, as in production
npm run typecheck
\`\`\`

## Make it yours

${steps}

The tests use \`describeConformance\` from \`@connector-sdk/testing/vitest\`: keep them green as you go.

## Run it in production

\`npm ci && npm run build\`, then \`node dist/main.js\` (what \`npm start\` runs; in a container run node itself, as
npm does not pass SIGTERM on). It reads \`HOST\` (default \`127.0.0.1\`; \`0.0.0.0\` in a container), \`PORT\` (default
3000), \`LOG_LEVEL\` (default \`info\`), \`CONNECTOR_SDK_SESSION_KEY\`, the key that signs sessions (32
characters or more, the same for every instance; without it a restart ends every session), and
\`CONNECTOR_SDK_EGRESS_ALLOW\`: the connector reaches public addresses only, so list the hosts, domains or ranges
of end systems on your own network (\`jira.corp.example,10.20.0.0/16\`). It logs JSON lines,
and on SIGTERM stops taking connections and lets the requests in flight finish.
`;
}
