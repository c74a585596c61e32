import {
  UnauthenticatedError,
  defineConnector,
  field,
  readWindow,
  secret,
  type PlatformOperationName,
} from '@connector-sdk/core';
import { serve, type ConnectorServer } from '@connector-sdk/node';
import { afterAll, describe, expect, it } from 'vitest';
import {
  HISTORY_BY_DISPLAY_NAME,
  SERVED_AFTER_EXPIRY,
  checkResults,
  expectFailed,
  expectPassed,
} from '../../../test/check-results.js';
import type { ConformanceOptions } from '../conformance-run.js';

// A tracker connector as a new user wrote one for Redmine, with the two defects these checks must catch:
// reads that the end system serves to anyone once the key is revoked (Redmine's anonymous user), and
// history that names users by display name while server info declares USERNAME_AS_USER.

interface Flaws {
  /** Reads serve data whatever the key, as Redmine's anonymous user; "who am I" still answers 401. */
  readonly anonymousReads?: boolean;
  /** Ask "who am I" before every operation. */
  readonly checkSession?: boolean;
  /** History names users by display name. */
  readonly displayNames?: boolean;
}

const USERS = [
  { id: '1', username: 'alice', email: 'alice@example.com', displayName: 'Alice Liddell' },
  { id: '2', username: 'bob', email: 'bob@example.com', displayName: 'Bob Builder' },
];

/** The tracker's state: the sessions it has given out. Revoking one is what expiry means here. */
function tracker() {
  const sessions = new Map<string, string>();
  let next = 0;
  return {
    /** Logs in; `undefined` for a wrong user name or key. */
    login(username: string, apiKey: string) {
      if (username !== 'alice' || apiKey !== 'k-alice-1234567890') return undefined;
      const token = `t-${++next}-${'x'.repeat(12)}`;
      sessions.set(token, username);
      return token;
    },
    /** The user a token is, or undefined for an unknown or revoked one. */
    whoIs: (token: string) => sessions.get(token),
    revoke: (token: string) => sessions.delete(token),
  };
}

function trackerConnector(flaws: Flaws, end = tracker()) {
  const reader = (token: unknown) => {
    if (flaws.anonymousReads !== true && (typeof token !== 'string' || !end.whoIs(token)))
      throw new UnauthenticatedError('The API key is not valid', { code: 'SESSION_EXPIRED' });
  };
  return defineConnector({
    name: 'tracker',
    version: '1.0.0',
    config: { url: field.url(), username: field.string(), apiKey: field.secret() },
    session: { Authorization: field.secret() },
    initialize({ config }) {
      const token = end.login(config.username, config.apiKey);
      if (token === undefined)
        throw new UnauthenticatedError('Wrong user name or API key', {
          code: 'AUTHENTICATION_FAILED',
        });
      return { Authorization: secret(token) };
    },
    ...(flaws.checkSession === true && {
      checkSession: {
        check: ({ session }: { session: { Authorization: string } }) =>
          end.whoIs(session.Authorization) !== undefined,
      },
    }),
    operations: ({ platform }) => ({
      serverInfo: platform.serverInfo(() => ({
        maxResults: 100,
        integrationUserInfo: { fieldInternalName: 'username', userDataType: 'USERNAME_AS_USER' },
      })),
      projects: platform.projects(({ query, session }) => {
        reader(session.Authorization);
        return readWindow(query, { all: () => [{ id: 'P1', name: 'Project 1' }] });
      }),
      entityTypes: platform.entityTypes(() => [
        { id: 'issue', name: 'Issue', direction: 'BOTH', pollerType: 'ENTITY_WISE_HISTORY' },
      ]),
      entityType: platform.entityType(() => ({
        history: { revisionDateFormat: 'yyyy-MM-dd HH:mm' },
      })),
      getEntity: platform.getEntity(({ params, session }) => {
        reader(session.Authorization);
        return { fields: { id: params.entityId, title: 'An issue' } };
      }),
      getComments: platform.getComments(({ session }) => {
        reader(session.Authorization);
        return { nextPageLinkSupported: false, comments: [] };
      }),
      users: platform.users(({ query, session }) => {
        reader(session.Authorization);
        return USERS.filter(
          (user) =>
            (query.username !== undefined && user.username === query.username) ||
            (query.email !== undefined && user.email === query.email) ||
            (query.displayName !== undefined && user.displayName === query.displayName),
        );
      }),
      entityHistory: platform.entityHistory(({ session }) => {
        reader(session.Authorization);
        return {
          nextPageLinkSupported: false,
          revisions: [
            ['2026-11-01 08:00', 'I-1', '1', USERS[0]],
            ['2026-11-02 09:30', 'I-1', '2', USERS[1]],
          ].map(([revisionDateTime, entityId, revisionId, user]) => ({
            revisionDateTime: revisionDateTime as string,
            entityId: entityId as string,
            revisionId: revisionId as string,
            updatedBy:
              flaws.displayNames === true
                ? (user as (typeof USERS)[number]).displayName
                : (user as (typeof USERS)[number]).username,
            revisionType: 'UPDATE' as const,
          })),
        };
      }),
    }),
  });
}

const CONFIG = {
  url: 'https://tracker.example',
  username: 'alice',
  apiKey: { value: 'k-alice-1234567890', sensitive: true },
};

const ONLY = ['platform.expired-reads', 'platform.history-identity'];

async function judge(flaws: Flaws, options: Partial<ConformanceOptions> = {}) {
  const end = tracker();
  return checkResults(
    {
      target: trackerConnector(flaws, end),
      config: CONFIG,
      expireSession: (session) => {
        for (const entry of session) end.revoke(entry.value);
      },
      ...options,
    },
    ONLY,
  );
}

describe('the kit judges what answers mean', () => {
  it('passes a tracker connector whose reads answer 401 once the key is revoked', async () => {
    expectPassed(await judge({}), ONLY);
  });

  it('fails one that serves reads after its key was revoked, naming each read and checkSession', async () => {
    const results = await judge({ anonymousReads: true });
    expectFailed(results['platform.expired-reads'], SERVED_AFTER_EXPIRY);
  });

  it('passes the same connector once it checks the session before each operation', async () => {
    const result = (await judge({ anonymousReads: true, checkSession: true }))[
      'platform.expired-reads'
    ];
    expect(result).toMatchObject({ status: 'passed' });
  });

  it('fails history that names users by display name under USERNAME_AS_USER, saying what notUpdatedByUser misses', async () => {
    const results = await judge({ displayNames: true });
    expectFailed(results['platform.history-identity'], HISTORY_BY_DISPLAY_NAME);
  });

  it('skips the expiry of reads without expireSession, saying why', async () => {
    const results = await checkResults({ target: trackerConnector({}), config: CONFIG }, ONLY);
    expect(results['platform.expired-reads']).toMatchObject({
      status: 'skipped',
      message: 'no expireSession given to make the end system drop a session',
    });
  });

  describe('over HTTP, with the operations listed', () => {
    const servers: ConnectorServer[] = [];
    afterAll(async () => {
      for (const server of servers) await server.close();
    });
    const LISTED: PlatformOperationName[] = [
      'serverInfo',
      'projects',
      'entityTypes',
      'entityType',
      'getEntity',
      'getComments',
      'users',
      'entityHistory',
    ];

    it('judges a running connector the same way', async () => {
      const end = tracker();
      const server = await serve(trackerConnector({ anonymousReads: true }, end), { port: 0 });
      servers.push(server);
      const results = await checkResults(
        {
          target: server.url,
          config: CONFIG,
          expireSession: (session) => {
            for (const entry of session) end.revoke(entry.value);
          },
          platform: { operations: LISTED },
        },
        ONLY,
      );
      expectFailed(results['platform.expired-reads'], SERVED_AFTER_EXPIRY);
      expectPassed(results, ['platform.history-identity']);
    });
  });
});
