import { formatJavaDate, type PlatformOperationName } from '@connector-sdk/core';
import type { PlatformSimulator } from '../../simulator/platform-simulator.js';
import type { SimulatorResponse } from '../../simulator/simulator-types.js';
import { headersOf, validSession, type ConformanceCheck } from './check-helpers.js';
import { ConformanceFailure } from '../conformance-failure.js';
import type { ConformanceRun } from '../conformance-run.js';
import type { DeclaredOperation } from '../declared-operations.js';
import {
  NO_HISTORY_SCOPE,
  UNLISTED,
  callDeclared,
  expectShape,
  historyDates,
  historyFromStart,
  noneServed,
  pathOf,
  scope,
} from './platform-check-helpers.js';

// Checks of what answers mean, not only their shape: a connector can answer every read in the documented
// shape and still serve data after its credential was revoked, or name users in history so that the platform's
// `notUpdatedByUser` never matches the integration user.

/** One read the kit can send: a platform operation with its path and query filled in. */
interface Read {
  readonly name: PlatformOperationName;
  readonly route: DeclaredOperation;
  readonly query: Readonly<Record<string, string>>;
  readonly params: Readonly<Record<string, string>>;
}

/** Sends a read with exactly these session headers (no initialize again on a 401, as `call` would). */
function sendRead(
  platform: PlatformSimulator,
  read: Read,
  headers: Readonly<Record<string, string>>,
): Promise<SimulatorResponse> {
  return platform.request({
    method: read.route.method,
    path: pathOf(read.route.pattern, read.params),
    query: read.query,
    headers,
  });
}

/**
 * The reads the kit can form parameters for, from what the connector lists: projects, the history of the
 * first project and entity type, and one entity of that history (its record and its comments).
 */
async function formReads(
  run: ConformanceRun,
  platform: PlatformSimulator,
  declared: ReadonlyMap<PlatformOperationName, DeclaredOperation>,
): Promise<Read[]> {
  const reads: Read[] = [];
  const add = (name: PlatformOperationName, query = {}, params = {}) => {
    const route = declared.get(name);
    if (route !== undefined) reads.push({ name, route, query, params });
  };
  add('projects', { startIndex: '0', maxResults: '1' });
  const where = await scope(run, platform, declared);
  if (where === undefined) return reads;
  const { projectId, entityTypeId } = where;
  const history = declared.get('entityHistory');
  let entityId = run.options.platform?.entityId;
  if (history !== undefined) {
    const { pattern, timeZone } = await historyDates(platform, declared, where);
    const query = {
      projectId,
      since: formatJavaDate(0, pattern, timeZone),
      startIndex: '0',
      maxResults: '1',
    };
    add('entityHistory', query, { entityTypeId });
    const answer = await callDeclared(platform, history, {
      query,
      params: { entityTypeId },
    });
    if (answer.status === 200)
      entityId ??= (answer.body as { revisions?: { entityId?: string }[] }).revisions?.[0]
        ?.entityId;
  }
  if (entityId !== undefined) {
    add('getEntity', { projectId, entityTypeId }, { entityId });
    add(
      'getComments',
      { projectId, startIndex: '0', maxResults: '1', afterTime: 'null' },
      { entityTypeId, entityId },
    );
  }
  return reads;
}

/** The checks of what a connector's answers mean. */
export const meaningChecks: readonly ConformanceCheck[] = [
  {
    id: 'platform.expired-reads',
    name: 'once the session expired, every read answers 401, never data',
    async run(run) {
      const { expireSession } = run.options;
      if (expireSession === undefined)
        return { skipped: 'no expireSession given to make the end system drop a session' };
      const declared = run.platformOperations?.routes;
      if (declared === undefined) return { skipped: UNLISTED };
      const platform = run.simulator();
      const session = await validSession(run, platform);
      const headers = headersOf(session);
      // Only reads that serve the end system's data with the valid session can show it served after expiry.
      // Where the kit sees the connector's end-system calls (the login made some), a read that made none
      // answers what the connector knows itself (a single project, say): serving it needs no session.
      const callsSeen = run.exchanges.some((exchange) => exchange.endSystemCalls.length > 0);
      const reads: Read[] = [];
      const unread: string[] = [];
      for (const read of await formReads(run, platform, declared)) {
        const before = await sendRead(platform, read, headers);
        const calledEndSystem = (run.exchanges.at(-1)?.endSystemCalls.length ?? 0) > 0;
        if (before.status !== 200)
          unread.push(`${read.name} (answered ${before.status} with a valid session)`);
        else if (callsSeen && !calledEndSystem)
          unread.push(`${read.name} (answers without calling the end system)`);
        else reads.push(read);
      }
      if (reads.length === 0)
        return {
          skipped: `${noneServed(run, 'no read the kit can form parameters for')}${
            unread.length === 0 ? '' : `; not run: ${unread.join('; ')}`
          }`,
        };
      await expireSession(session);
      const served: string[] = [];
      for (const read of reads) {
        const after = await sendRead(platform, read, headers);
        if (after.status !== 401)
          served.push(
            `platform.${read.name} answered ${after.status}${after.code === undefined ? '' : ` ${after.code}`}`,
          );
      }
      if (served.length > 0)
        throw new ConformanceFailure(
          `Served after the session expired: ${served.join('; ')}; expected 401 from each, so that the platform initializes again. ` +
            'Some end systems answer reads without a valid credential (Redmine serves an unknown API key as the anonymous user): ' +
            "give the connector a checkSession that asks the end system who the session's user is, and answers 401 when it cannot say.",
        );
      return unread.length === 0 ? undefined : { note: `not run: ${unread.join('; ')}` };
    },
  },
  {
    id: 'platform.history-identity',
    name: 'history names users the way server info declares, so notUpdatedByUser can match the integration user',
    async run(run) {
      const declared = run.platformOperations?.routes;
      if (declared === undefined) return { skipped: UNLISTED };
      const history = declared.get('entityHistory');
      const infoRoute = declared.get('serverInfo');
      const users = declared.get('users');
      if (history === undefined || infoRoute === undefined || users === undefined)
        return {
          skipped: noneServed(
            run,
            `no ${[
              history === undefined ? 'platform.entityHistory' : undefined,
              infoRoute === undefined ? 'platform.serverInfo' : undefined,
              users === undefined ? 'platform.users' : undefined,
            ]
              .filter(Boolean)
              .join(', ')}`,
          ),
        };
      const platform = run.simulator();
      const where = await scope(run, platform, declared);
      if (where === undefined) return { skipped: NO_HISTORY_SCOPE };
      const info = expectShape('serverInfo', await callDeclared(platform, infoRoute)) as {
        integrationUserInfo: { fieldInternalName: string; userDataType: string };
      };
      const byEmail = info.integrationUserInfo.userDataType === 'EMAIL_AS_USER';
      const key = byEmail ? 'email' : 'username';
      const answer = expectShape(
        'entityHistory',
        await historyFromStart(platform, history, {
          where,
          dates: await historyDates(platform, declared, where),
          maxResults: 100,
        }),
      ) as { revisions: { updatedBy?: unknown }[] };
      const names = [
        ...new Set(
          answer.revisions.flatMap((revision) =>
            typeof revision.updatedBy === 'string' && revision.updatedBy !== ''
              ? [revision.updatedBy]
              : [],
          ),
        ),
      ].slice(0, 5);
      if (names.length === 0)
        return {
          skipped: `no revision in project '${where.projectId}', entity type '${where.entityTypeId}' names who made it: name a project with history (platform: { projectId, entityTypeId })`,
        };
      // Quoted in the failure only when the configuration does not hold it as a secret.
      const userEntry = platform.config.find(
        (entry) => entry.key === info.integrationUserInfo.fieldInternalName,
      );
      const integrationUser = userEntry?.sensitive === false ? userEntry.value : undefined;
      for (const name of names) {
        const found = expectShape(
          'users',
          await callDeclared(platform, users, {
            query: { projectId: where.projectId, [key]: name },
          }),
        ) as { username?: string; email?: string }[];
        if (!found.some((user) => user[key] === name))
          throw new ConformanceFailure(
            `History names a user '${name}', but platform.users finds no user with that ${key}: server info declares ${info.integrationUserInfo.userDataType}, so updatedBy must be the user's ${key}. ` +
              `The platform compares updatedBy with notUpdatedByUser, the integration user's ${key}${
                integrationUser === undefined
                  ? ''
                  : ` ('${integrationUser}', from the configuration field '${info.integrationUserInfo.fieldInternalName}')`
              }: named any other way, the integration user's own changes are never filtered out, and a sync echoes its own writes back.`,
          );
      }
      return undefined;
    },
  },
];
