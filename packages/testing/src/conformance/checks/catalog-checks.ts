import {
  PLATFORM_OPERATIONS,
  parseJavaDate,
  formatJavaDate,
  type Connector,
  type PlatformOperationName,
  type z,
} from '@connector-sdk/core';
import { type ConformanceCheck } from './check-helpers.js';
import { ConformanceFailure } from '../conformance-failure.js';
import type { ConformanceRun } from '../conformance-run.js';
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

/** Text order by UTF-16 code units: the same on every machine, whatever its locale. */
const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The platform operations whose body is a multipart upload. */
const UPLOADS = [
  'createAttachment',
  'updateAttachment',
] as const satisfies readonly PlatformOperationName[];

/** A configuration field the connector metadata must show, and how to name it in a failure. */
interface FormField {
  readonly key: string;
  readonly required: boolean;
  /** Why it must be shown. */
  readonly needs: string;
  /** Why it must be a PASSWORD field, when it must. */
  readonly secret: string | undefined;
}

/**
 * The fields the metadata must show: those the connector declares when the kit serves it, else the entries
 * of the valid configuration (each stands for a field the user filled in on the platform's form).
 */
function formFields(run: ConformanceRun): FormField[] {
  if (run.servesConnector)
    return (run.options.target as Connector).compiled.configFields.map((field) => ({
      key: field.key,
      required: !field.optional,
      needs: `The configuration field '${field.key}' is required`,
      secret: field.secret ? `'${field.key}' is a secret field` : undefined,
    }));
  return run
    .simulator()
    .config.filter((entry) => entry.key !== 'suppressNotification')
    .map((entry) => ({
      key: entry.key,
      required: true,
      needs: `The configuration holds '${entry.key}'`,
      secret: entry.sensitive ? `'${entry.key}' is sent as sensitive` : undefined,
    }));
}

/** The checks of the platform operations a connector declares from the catalog. */
export const catalogChecks: readonly ConformanceCheck[] = [
  {
    id: 'platform.configuration-info',
    name: 'connector metadata and server info have the documented shape and agree with the configuration',
    async run(run) {
      const declared = run.platformOperations?.routes;
      if (declared === undefined) return { skipped: UNLISTED };
      const metadataRoute = declared.get('connectorMetadata');
      const serverInfoRoute = declared.get('serverInfo');
      if (metadataRoute === undefined && serverInfoRoute === undefined)
        return {
          skipped: noneServed(run, 'neither platform.connectorMetadata nor platform.serverInfo'),
        };
      const platform = run.simulator();
      const metadataNames = new Set<string>();
      if (metadataRoute !== undefined) {
        const metadata = expectShape(
          'connectorMetadata',
          await callDeclared(platform, metadataRoute),
        ) as {
          fields: { internalName: string; fieldType: string }[];
        };
        for (const field of metadata.fields) metadataNames.add(field.internalName);
        // The form the user fills in and the configuration the connector reads must be the same fields.
        for (const field of formFields(run)) {
          const shown = metadata.fields.find((entry) => entry.internalName === field.key);
          if (shown === undefined && field.required)
            throw new ConformanceFailure(
              `${field.needs}, but the connector metadata has no field with internalName '${field.key}': the user can never fill it in.`,
            );
          if (shown !== undefined && field.secret !== undefined && shown.fieldType !== 'PASSWORD')
            throw new ConformanceFailure(
              `${field.secret}, but the connector metadata shows it as ${shown.fieldType}: make it PASSWORD, so the platform masks it and sends it as sensitive.`,
            );
        }
      }
      if (serverInfoRoute !== undefined) {
        const info = expectShape('serverInfo', await callDeclared(platform, serverInfoRoute)) as {
          integrationUserInfo: { fieldInternalName: string };
        };
        const { fieldInternalName } = info.integrationUserInfo;
        if (metadataRoute !== undefined && !metadataNames.has(fieldInternalName))
          throw new ConformanceFailure(
            `server-info's integrationUserInfo.fieldInternalName is '${fieldInternalName}', which names no field of the connector metadata.`,
          );
      }
      return undefined;
    },
  },
  {
    id: 'platform.paging',
    name: 'a list answers exactly the window asked for, and 400 without startIndex or over the server-info maxResults',
    async run(run) {
      const declared = run.platformOperations?.routes;
      if (declared === undefined) return { skipped: UNLISTED };
      const projects = declared.get('projects');
      if (projects === undefined) return { skipped: noneServed(run, 'no platform.projects') };
      const platform = run.simulator();
      const window = async (startIndex: number, maxResults: number) =>
        expectShape(
          'projects',
          await callDeclared(platform, projects, {
            query: {
              startIndex: String(startIndex),
              maxResults: String(maxResults),
            },
          }),
        ) as unknown[];
      const two = await window(0, 2);
      if (two.length > 2)
        throw new ConformanceFailure(
          `projects with startIndex=0&maxResults=2 answered ${two.length} projects; answer at most maxResults (readWindow does).`,
        );
      const second = await window(1, 1);
      // Fewer than two projects leave no second window to compare with the first.
      const notRun =
        two.length < 2
          ? `not run: the comparison of two windows (the connector lists ${two.length} project${two.length === 1 ? '' : 's'}; it needs 2)`
          : undefined;
      if (two.length === 2 && JSON.stringify(second) !== JSON.stringify(two.slice(1)))
        throw new ConformanceFailure(
          'projects with startIndex=1&maxResults=1 is not the second project of startIndex=0&maxResults=2: answer the window the platform asks for, from startIndex (readWindow does).',
        );
      const missing = await callDeclared(platform, projects, { query: { maxResults: '2' } });
      run.expectStatus(missing, [400], {
        what: 'projects without startIndex',
        fix: 'Let the catalog parse the query.',
      });
      const serverInfo = declared.get('serverInfo');
      if (serverInfo !== undefined) {
        const info = expectShape('serverInfo', await callDeclared(platform, serverInfo)) as {
          maxResults: number;
        };
        const over = await callDeclared(platform, projects, {
          query: {
            startIndex: '0',
            maxResults: String(info.maxResults + 1),
          },
        });
        run.expectStatus(over, [400], {
          what: `projects with maxResults=${info.maxResults + 1}, over server-info's ${info.maxResults}`,
          fix: 'Pass { maxResults } from your server info to readWindow.',
        });
      }
      return notRun === undefined ? undefined : { note: notRun };
    },
  },
  {
    id: 'platform.history-order',
    name: 'entity history comes oldest first: by revision time, then entity id, then revision id',
    async run(run) {
      const declared = run.platformOperations?.routes;
      if (declared === undefined) return { skipped: UNLISTED };
      const history = declared.get('entityHistory');
      if (history === undefined) return { skipped: noneServed(run, 'no platform.entityHistory') };
      const platform = run.simulator();
      const where = await scope(run, platform, declared);
      if (where === undefined) return { skipped: NO_HISTORY_SCOPE };
      const dates = await historyDates(platform, declared, where);
      const { pattern, timeZone, numericRevisions } = dates;
      const answer = expectShape(
        'entityHistory',
        await historyFromStart(platform, history, { where, dates, maxResults: 100 }),
      ) as { revisions: { revisionDateTime: string; entityId: string; revisionId: string }[] };
      const read = `project '${where.projectId}', entity type '${where.entityTypeId}'`;
      const nameOne =
        'name a project with history (platform: { projectId, entityTypeId }; --project-id and --entity-type-id in the CLI)';
      if (answer.revisions.length === 0)
        return {
          skipped: `no revisions in ${read} since ${formatJavaDate(0, pattern, timeZone)}, so there is no order to judge: ${nameOne}`,
        };
      const keyed = answer.revisions.map((revision) => {
        let time: number;
        try {
          time = parseJavaDate(revision.revisionDateTime, pattern, timeZone).getTime();
        } catch {
          throw new ConformanceFailure(
            `A revision's revisionDateTime "${revision.revisionDateTime}" does not follow the declared pattern "${pattern}".`,
          );
        }
        return { time, entityId: revision.entityId, revisionId: revision.revisionId };
      });
      for (let i = 1; i < keyed.length; i++) {
        const [a, b] = [keyed[i - 1], keyed[i]] as [(typeof keyed)[number], (typeof keyed)[number]];
        const order =
          a.time - b.time ||
          byCodeUnits(a.entityId, b.entityId) ||
          (numericRevisions
            ? Number(a.revisionId) - Number(b.revisionId)
            : byCodeUnits(a.revisionId, b.revisionId));
        if (order > 0)
          throw new ConformanceFailure(
            `History revision ${i + 1} (${b.entityId}/${b.revisionId}) comes after ${a.entityId}/${a.revisionId} but sorts before it: answer revisions by revisionDateTime, then entityId, then revisionId, ascending.`,
          );
      }
      if (keyed.length === 1)
        return {
          note: `only one revision in ${read}, so its date was read but no order judged: ${nameOne}`,
        };
      return undefined;
    },
  },
  {
    id: 'platform.parameters',
    name: 'every platform operation answers 400 to a required parameter left out',
    async run(run) {
      const declared = run.platformOperations?.routes;
      if (declared === undefined) return { skipped: UNLISTED };
      const required = [...declared].filter(([name]) => {
        const query = (PLATFORM_OPERATIONS[name] as { readonly query?: z.ZodType }).query;
        return query !== undefined && !query.safeParse({}).success;
      });
      if (required.length === 0)
        return {
          skipped: noneServed(run, 'no platform operation with a required parameter'),
        };
      const platform = run.simulator();
      for (const [name, route] of required) {
        const response = await platform.call({
          method: route.method,
          path: pathOf(route.pattern),
          ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { body: {} }),
        });
        run.expectStatus(response, [400], {
          what: `platform.${name} (${route.method} ${route.pattern}) without its query`,
          fix: 'Let the catalog builder parse the query; do not read parameters yourself.',
        });
      }
      return undefined;
    },
  },
  {
    id: 'platform.uploads',
    name: 'attachment uploads answer 400 without fileName and 415 to a body that is not multipart',
    async run(run) {
      const declared = run.platformOperations?.routes;
      if (declared === undefined) return { skipped: UNLISTED };
      const uploads = UPLOADS.flatMap((name) => {
        const route = declared.get(name);
        return route === undefined ? [] : [[name, route] as const];
      });
      if (uploads.length === 0)
        return {
          skipped: noneServed(
            run,
            'neither platform.createAttachment nor platform.updateAttachment',
          ),
        };
      const platform = run.simulator();
      // Both are refused before connector code runs, so nothing is uploaded to the end system.
      const query = { projectId: 'conformance-project', attachmentId: 'conformance-id' };
      for (const [name, route] of uploads) {
        const what = `platform.${name} (${route.method} ${route.pattern})`;
        const withoutName = new FormData();
        withoutName.append('file', new Blob(['conformance']), 'conformance.txt');
        const missing = await platform.call({
          method: route.method,
          path: pathOf(route.pattern),
          query,
          body: withoutName,
        });
        run.expectStatus(missing, [400], {
          what: `${what} with a multipart body without fileName`,
          fix: 'Serve it with the catalog builder, which reads the multipart body and checks its fields.',
        });
        const message = (missing.body as { errors?: { message?: string } }).errors?.message ?? '';
        if (!message.includes('fileName'))
          throw new ConformanceFailure(
            `${what} answered 400 to a body without fileName, but its message does not name fileName: "${message.slice(0, 200)}".`,
          );
        const json = await platform.call({
          method: route.method,
          path: pathOf(route.pattern),
          query,
          body: { fileName: 'conformance.txt', file: 'conformance' },
        });
        run.expectStatus(json, [415], {
          what: `${what} with a JSON body`,
          fix: 'The platform uploads multipart/form-data: serve it with the catalog builder.',
        });
      }
      return undefined;
    },
  },
];
