import {
  ConnectorError,
  UnauthenticatedError,
  defineConnector,
  field,
  formatJavaDate,
  parseJavaDate,
  readWindow,
  secret,
  type Logger,
  type ParameterEntry,
  type PlatformAnswer,
} from '@connector-sdk/core';
import { createEndSystemClient } from '@connector-sdk/core/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { needsPython, pythonMissing } from '../../../core/test/wsgi-file-store.js';
import {
  HISTORY_BY_DISPLAY_NAME,
  OWN_CHANGE_BY_DISPLAY_NAME,
  SERVED_AFTER_EXPIRY,
  checkResults,
  expectFailed,
  expectPassed,
} from '../../test/check-results.js';
import { LOOPBACK_EGRESS } from '../../test/records-connector.js';
import { TRACKER_KEYS, startWsgiTracker, type WsgiTracker } from '../../test/wsgi-tracker.js';

// The two defects of a new user's Redmine connector, re-created against a real HTTP server that answers as
// Redmine 5 does (wsgi-tracker.py): a revoked API key is served as the anonymous user on every read but
// `users/current.json`, and journals name their user by display name. The connector is written as a new user
// writes one, naively and then correctly; the kit must fail the first and pass the second, naming the cause.

/** How the connector was written. */
interface Writing {
  /** Asks Redmine who the key's user is before each operation: the one read a revoked key is refused on. */
  readonly checkSession: boolean;
  /** Names a journal's user by the display name the journal carries, or by the login the users list gives. */
  readonly historyNames: 'display name' | 'login';
}

const NAIVE: Writing = { checkSession: false, historyNames: 'display name' };
const CORRECT: Writing = { checkSession: true, historyNames: 'login' };

interface RedmineSession {
  readonly 'X-Redmine-API-Key': string;
  readonly 'X-Redmine-Url': string;
}

interface RedmineCall {
  readonly session: RedmineSession;
  readonly signal: AbortSignal;
  readonly log: Logger;
}

interface Named {
  readonly id: number;
  readonly name: string;
}

interface RedmineUser {
  readonly id: number;
  readonly login: string;
  readonly firstname: string;
  readonly lastname: string;
  readonly mail: string;
}

interface Journal {
  readonly id: number;
  readonly user: Named;
  readonly notes: string;
  readonly created_on: string;
  readonly details: readonly {
    property: string;
    name: string;
    old_value: unknown;
    new_value: unknown;
  }[];
}

interface Issue {
  readonly id: number;
  readonly author: Named;
  readonly subject: string;
  readonly description: string;
  readonly due_date: string | null;
  readonly created_on: string;
  readonly updated_on: string;
  readonly journals?: readonly Journal[];
}

type Revision = PlatformAnswer<'entityHistory'>['revisions'][number];

/** Redmine stamps changes to the second, in UTC. */
const HISTORY_DATE = "yyyy-MM-dd'T'HH:mm:ssXXX";
/** Redmine's largest page. */
const PAGE = 100;
/** The attributes the platform's fields may change (entity field ids are Redmine's attribute names). */
const EDITABLE = ['subject', 'description', 'due_date'];

function redmine({ session, signal, log }: RedmineCall) {
  return createEndSystemClient({
    baseUrl: session['X-Redmine-Url'],
    headers: { 'X-Redmine-API-Key': session['X-Redmine-API-Key'] },
    signal,
    log,
  });
}

/** Every item of a Redmine list, by offset and limit until its `total_count`. */
async function readAll<T>(
  call: RedmineCall,
  list: { path: string; key: string; searchParams: Record<string, string> },
): Promise<T[]> {
  const items: T[] = [];
  for (;;) {
    const answer = await redmine(call)
      .get(list.path, {
        searchParams: { ...list.searchParams, offset: items.length, limit: PAGE },
      })
      .json<{ total_count: number } & Record<string, unknown>>();
    const page = answer[list.key] as T[];
    items.push(...page);
    if (page.length === 0 || items.length >= answer.total_count) return items;
  }
}

const issueOf = async (call: RedmineCall, id: string, include = '') =>
  (
    await redmine(call)
      .get(`issues/${encodeURIComponent(id)}.json`, { searchParams: include ? { include } : {} })
      .json<{ issue: Issue }>()
  ).issue;

const asFields = (issue: Issue) => ({
  id: String(issue.id),
  subject: issue.subject,
  description: issue.description,
  ...(issue.due_date !== null && { due_date: issue.due_date }),
});

const editable = (fields: Readonly<Record<string, unknown>>) =>
  Object.fromEntries(Object.entries(fields).filter(([name]) => EDITABLE.includes(name)));

/** How history names the user of a journal (or the author of an issue). */
async function namer(writing: Writing, call: RedmineCall): Promise<(user: Named) => string> {
  if (writing.historyNames === 'display name') return (user) => user.name;
  // A journal carries the display name only; the login, which server info declares history names users by, is
  // in the users list (administrators only, as the integration user is). `status=` lists locked users too.
  const users = await readAll<RedmineUser>(call, {
    path: 'users.json',
    key: 'users',
    searchParams: { status: '' },
  });
  const logins = new Map(users.map((user) => [user.id, user.login]));
  return (user) => {
    const login = logins.get(user.id);
    if (login === undefined)
      throw new ConnectorError('END_SYSTEM_ERROR', `Redmine lists no user ${user.id}`);
    return login;
  };
}

/** An issue's creation and its journals, each as a revision with its time (epoch ms). */
function revisionsOf(issue: Issue, name: (user: Named) => string) {
  const at = (text: string) => ({
    time: Date.parse(text),
    revisionDateTime: formatJavaDate(Date.parse(text), HISTORY_DATE, 'UTC'),
  });
  const entityId = String(issue.id);
  return [
    {
      ...at(issue.created_on),
      entityId,
      revisionId: '0',
      updatedBy: name(issue.author),
      revisionType: 'CREATE' as const,
    },
    ...(issue.journals ?? []).map((journal) => ({
      ...at(journal.created_on),
      entityId,
      revisionId: String(journal.id),
      updatedBy: name(journal.user),
      revisionType: 'UPDATE' as const,
      fieldsChangedInRevision: Object.fromEntries(
        journal.details
          .filter((detail) => detail.property === 'attr')
          .map((detail) => [
            detail.name,
            { oldValue: detail.old_value, newValue: detail.new_value },
          ]),
      ),
    })),
  ];
}

/** Redmine's `updated_on` filter value: at or after `ms`, to the second. */
const updatedSince = (ms: number) =>
  `>=${new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z')}`;

function redmineConnector(writing: Writing) {
  return defineConnector({
    name: 'redmine',
    version: '1.0.0',
    config: { url: field.url(), username: field.string(), apiKey: field.secret() },
    session: { 'X-Redmine-API-Key': field.secret(), 'X-Redmine-Url': field.url() },
    async initialize({ config, signal, log }) {
      const session = { 'X-Redmine-API-Key': config.apiKey, 'X-Redmine-Url': config.url };
      // Redmine's reads serve an unknown key as the anonymous user: "who am I" is the one that refuses it.
      const { user } = await redmine({ session, signal, log })
        .get('users/current.json')
        .json<{ user: RedmineUser }>();
      if (user.login !== config.username)
        throw new UnauthenticatedError(`The API key is not ${config.username}'s`, {
          code: 'AUTHENTICATION_FAILED',
        });
      return { ...session, 'X-Redmine-API-Key': secret(config.apiKey) };
    },
    ...(writing.checkSession && {
      checkSession: {
        check: async (call: RedmineCall) => {
          // A revoked key answers 401 here, which the SDK answers as SESSION_EXPIRED.
          await redmine(call).get('users/current.json').json();
          return true;
        },
      },
    }),
    operations: ({ platform }) => ({
      serverInfo: platform.serverInfo(() => ({
        timeZone: 'UTC',
        maxResults: PAGE,
        integrationUserInfo: { fieldInternalName: 'username', userDataType: 'USERNAME_AS_USER' },
      })),
      projects: platform.projects(({ query, ...call }) =>
        readWindow(
          query,
          {
            offset: async (offset, limit) =>
              (
                await redmine(call)
                  .get('projects.json', { searchParams: { offset, limit } })
                  .json<{ projects: { identifier: string; name: string }[] }>()
              ).projects.map((project) => ({ id: project.identifier, name: project.name })),
          },
          { maxResults: PAGE },
        ),
      ),
      entityTypes: platform.entityTypes(() => [
        { id: 'issue', name: 'Issue', direction: 'BOTH', pollerType: 'ENTITY_WISE_HISTORY' },
      ]),
      entityType: platform.entityType(() => ({
        history: { revisionDateFormat: HISTORY_DATE, revisionUserDataType: 'USERNAME_AS_USER' },
        comments: { fieldNameInfo: { bodyFieldName: 'body' } },
        fields: [
          { id: 'subject', dataType: 'TEXT' },
          { id: 'description', dataType: 'TEXT' },
          { id: 'due_date', dataType: 'DATE', dateFormat: 'yyyy-MM-dd' },
        ],
      })),
      getEntity: platform.getEntity(async ({ params, ...call }) => ({
        fields: asFields(await issueOf(call, params.entityId)),
      })),
      getComments: platform.getComments(async ({ params, query, ...call }) => {
        const issue = await issueOf(call, params.entityId, 'journals');
        const comments = (issue.journals ?? [])
          .filter((journal) => journal.notes !== '')
          .map((journal) => ({
            id: String(journal.id),
            body: journal.notes,
            createdDate: journal.created_on,
          }));
        return {
          nextPageLinkSupported: false,
          comments: await readWindow(query, { all: () => comments }, { maxResults: PAGE }),
        };
      }),
      users: platform.users(async ({ query, ...call }) => {
        const users = await readAll<RedmineUser>(call, {
          path: 'users.json',
          key: 'users',
          searchParams: { name: query.username ?? query.email ?? query.displayName ?? '' },
        });
        // Redmine's `name` matches parts of logins, mails and names; the platform asks for one exact value.
        return users
          .map((user) => ({
            id: String(user.id),
            username: user.login,
            email: user.mail,
            displayName: `${user.firstname} ${user.lastname}`,
          }))
          .filter(
            (user) =>
              user.username === query.username ||
              user.email === query.email ||
              user.displayName === query.displayName,
          );
      }),
      createEntity: platform.createEntity(async ({ query, body, ...call }) => {
        const { issue } = await redmine(call)
          .post('issues.json', {
            json: { issue: { ...editable(body.fields), project_id: query.projectId } },
          })
          .json<{ issue: Issue }>();
        return { fields: asFields(issue) };
      }),
      updateEntity: platform.updateEntity(async ({ params, body, ...call }) => {
        await redmine(call).put(`issues/${encodeURIComponent(params.entityId)}.json`, {
          json: { issue: editable(body.fields) },
        });
        return { fields: asFields(await issueOf(call, params.entityId)) };
      }),
      deleteEntity: platform.deleteEntity(async ({ params, ...call }) => {
        await redmine(call).delete(`issues/${encodeURIComponent(params.entityId)}.json`);
      }),
      entityHistory: platform.entityHistory(async ({ query, ...call }) => {
        const since = parseJavaDate(query.since, HISTORY_DATE, 'UTC').getTime();
        const until =
          query.maxTime === undefined
            ? Infinity
            : parseJavaDate(query.maxTime, HISTORY_DATE, 'UTC').getTime();
        const all = async (): Promise<Revision[]> => {
          const ids =
            query.entityId !== undefined
              ? [query.entityId]
              : (
                  await readAll<Issue>(call, {
                    path: 'issues.json',
                    key: 'issues',
                    searchParams: {
                      project_id: query.projectId,
                      status_id: '*',
                      sort: 'id',
                      updated_on: updatedSince(since),
                    },
                  })
                ).map((issue) => String(issue.id));
          const name = await namer(writing, call);
          const changes = [];
          for (const id of ids)
            changes.push(...revisionsOf(await issueOf(call, id, 'journals'), name));
          const ordered = changes
            .filter(
              (change) =>
                change.time >= since &&
                change.time <= until &&
                change.updatedBy !== query.notUpdatedByUser,
            )
            .sort(
              (a, b) =>
                a.time - b.time ||
                Number(a.entityId) - Number(b.entityId) ||
                Number(a.revisionId) - Number(b.revisionId),
            )
            .map(({ time: _time, ...revision }) => revision);
          return query.orderByDirection === 'DESC' ? ordered.reverse() : ordered;
        };
        return {
          nextPageLinkSupported: false,
          revisions: await readWindow(query, { all }, { maxResults: PAGE }),
        };
      }),
    }),
  });
}

const ROUND_TRIP = {
  create: { subject: 'conformance', description: 'made by the conformance kit' },
  update: { subject: 'changed by the conformance kit' },
};
const EXPIRY = ['platform.expired-reads'];
const IDENTITY = ['platform.history-identity', 'platform.own-change-identity'];

describe.skipIf(pythonMissing !== undefined)(
  needsPython('a Redmine connector judged against a Redmine-like server (wsgiref)'),
  () => {
    let tracker: WsgiTracker;
    beforeAll(async () => {
      tracker = await startWsgiTracker();
    });
    afterAll(() => tracker?.stop());

    const revoke = async (session: readonly ParameterEntry[]) => {
      const key = session.find((entry) => entry.key.toLowerCase() === 'x-redmine-api-key');
      if (key === undefined) throw new Error('initialize answered no X-Redmine-API-Key');
      await tracker.revokeApiKey(key.value);
    };

    /**
     * Runs the checks on fresh seed data. Expiry and identity run apart: Redmine cannot take a revoked key back,
     * so once the expiry check revoked it, every later initialize with the configured key is refused.
     */
    async function judge(writing: Writing, only: readonly string[]) {
      await tracker.reset();
      return checkResults(
        {
          target: redmineConnector(writing),
          config: {
            url: tracker.url,
            username: 'alice',
            apiKey: { value: TRACKER_KEYS.alice, sensitive: true },
          },
          handlerOptions: { egress: LOOPBACK_EGRESS },
          expireSession: revoke,
          platform: { roundTrip: ROUND_TRIP },
        },
        only,
      );
    }

    const get = async (path: string, key?: string) => {
      const response = await fetch(`${tracker.url}/${path}`, {
        headers: key === undefined ? {} : { 'X-Redmine-API-Key': key },
      });
      return {
        status: response.status,
        body: response.status === 200 ? await response.json() : {},
      };
    };

    it('serves a revoked key as the anonymous user on every read but users/current.json, as Redmine does', async () => {
      await tracker.reset();
      expect((await get('users/current.json', TRACKER_KEYS.alice)).status).toBe(200);
      await tracker.revokeApiKey(TRACKER_KEYS.alice);
      expect((await get('users/current.json', TRACKER_KEYS.alice)).status).toBe(401);
      const projects = await get('projects.json', TRACKER_KEYS.alice);
      expect(projects).toMatchObject({
        status: 200,
        body: { projects: [{ identifier: 'sandbox' }], total_count: 1 },
      });
      expect((await get('issues.json?project_id=sandbox', TRACKER_KEYS.alice)).status).toBe(200);
      expect(await get('issues/1.json?include=journals', TRACKER_KEYS.alice)).toMatchObject({
        status: 200,
        body: { issue: { journals: [{ user: { id: 2, name: 'Bob Builder' } }, {}] } },
      });
      // What the anonymous user may not see or do asks for a login.
      expect((await get('issues.json?project_id=vault', TRACKER_KEYS.alice)).status).toBe(401);
      expect((await get('users.json', TRACKER_KEYS.alice)).status).toBe(401);
    });

    it('fails the naive connector, whose reads serve data after its key was revoked, naming each and checkSession', async () => {
      expectFailed((await judge(NAIVE, EXPIRY))['platform.expired-reads'], [
        ...SERVED_AFTER_EXPIRY,
        'Redmine serves an unknown API key as the anonymous user',
      ]);
    });

    it('passes the connector that asks users/current.json before each operation', async () => {
      const result = (await judge(CORRECT, EXPIRY))['platform.expired-reads'];
      expect(result).toEqual(expect.objectContaining({ status: 'passed' }));
      // Every read was tried: none was left out for answering without the end system.
      expect(result?.message).toBeUndefined();
    });

    it("fails the naive connector, whose history names users by the journal's display name, naming notUpdatedByUser", async () => {
      const results = await judge(NAIVE, IDENTITY);
      expectFailed(results['platform.history-identity'], HISTORY_BY_DISPLAY_NAME);
      expectFailed(results['platform.own-change-identity'], OWN_CHANGE_BY_DISPLAY_NAME);
    });

    it('passes the connector whose history maps the journal user id to the login', async () => {
      expectPassed(await judge(CORRECT, IDENTITY), IDENTITY);
      // The issue the kit made for its change is gone again.
      expect((await get('issues.json?project_id=sandbox', TRACKER_KEYS.alice)).body).toMatchObject({
        total_count: 2,
      });
    });
  },
);
