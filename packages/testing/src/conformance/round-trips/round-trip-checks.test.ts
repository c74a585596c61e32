import {
  UnauthenticatedError,
  ValidationError,
  defineConnector,
  field,
  foldSearchQuery,
  formatJavaDate,
  parseJavaDate,
  pollWindow,
  readWindow,
  secret,
  type SearchQuery,
} from '@connector-sdk/core';
import { createEndSystemClient } from '@connector-sdk/core/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  needsPython,
  pythonMissing,
  startWsgiFileStore,
  type WsgiFileStore,
} from '../../../../core/test/wsgi-file-store.js';
import {
  OWN_CHANGE_BY_DISPLAY_NAME,
  checkResults,
  expectFailed,
  expectPassed,
} from '../../../test/check-results.js';
import { LOOPBACK_EGRESS } from '../../../test/records-connector.js';
import type { ConformanceOptions } from '../conformance-run.js';

// The round trips against a tracker connector whose files go to a real server that does not decode chunked
// request bodies (Python's wsgiref, as Redmine under Ruby's thin): the connector as a new user wrote it, with
// each defect a round trip must catch, re-created.

interface Flaws {
  /** Send uploads chunked, as Node's fetch sends a stream (the end system stores the framing). */
  readonly chunked?: boolean;
  /** History names users by display name. */
  readonly displayNames?: boolean;
  /** An update replaces the entity with the fields sent, dropping the others. */
  readonly replacesOnUpdate?: boolean;
  /**
   * History windows cut by offset from the end system's newest-first list, then sorted oldest first: one
   * window of everything is in order, but a change between windows shifts every offset.
   */
  readonly newestFirstPaging?: boolean;
  /** "Updated since" searches cut by offset from the list by update time, as readWindow does. */
  readonly offsetSearch?: boolean;
  /** A search by id compares another field, so it finds nothing. */
  readonly idSearchMisses?: boolean;
  /** The field an entity's id is answered under, declared as the entity type's `fieldNameInfo.idFieldName`. */
  readonly idName?: string;
}

const UPDATED = "yyyy-MM-dd'T'HH:mm:ss.SSSXXX";

/** What the platform's search asks of the tracker: ids, and update times after and up to. */
function trackerSearch(query: SearchQuery, flaws: Flaws) {
  type Filter = { ids?: string[]; after?: number; until?: number };
  const time = (value: unknown) => parseJavaDate(String(value), UPDATED, 'UTC').getTime();
  return foldSearchQuery<Filter>(query, {
    compare: (name, comparison, value) => {
      const idName = flaws.idName ?? 'id';
      if (name === (flaws.idSearchMisses === true ? 'other' : idName) && comparison === 'EQUALS')
        return { ids: [String(value)] };
      if (name === 'updated' && comparison === 'GREATER_THAN') return { after: time(value) };
      if (name === 'updated' && comparison === 'LESS_THAN_EQUALS') return { until: time(value) };
      if (name === idName || name === 'updated') return { ids: [] };
      throw new ValidationError(`The tracker cannot search for ${name} ${comparison}`);
    },
    and: (parts) => Object.assign({}, ...parts) as Filter,
    in: (name, values) => ({ ids: name === (flaws.idName ?? 'id') ? values.map(String) : [] }),
    not: () => {
      throw new ValidationError('The tracker cannot search with NOT');
    },
    native: () => {
      throw new ValidationError('The tracker has no query language');
    },
  });
}

const HISTORY_DATE = "yyyy-MM-dd'T'HH:mm:ss.SSSXXX";

function trackerConnector(store: WsgiFileStore, flaws: Flaws) {
  const entities = new Map<string, Record<string, unknown>>();
  const revisions: { entityId: string; revisionId: string; at: number; by: string }[] = [];
  const comments: { entityId: string; text: string }[] = [];
  let next = 0;
  const ID = flaws.idName ?? 'id';
  // Update times in milliseconds, each later than the one before, as a tracker that stamps each change.
  let last = 0;
  const stamp = () => {
    last = Math.max(Date.now(), last + 1);
    return formatJavaDate(last, UPDATED, 'UTC');
  };
  const connector = defineConnector({
    name: 'round-trips',
    version: '1.0.0',
    config: { url: field.url(), username: field.string(), password: field.secret() },
    session: { Authorization: field.secret() },
    initialize({ config }) {
      if (config.username !== 'alice' || config.password !== 'wonderland-42')
        throw new UnauthenticatedError('Wrong user name or password', {
          code: 'AUTHENTICATION_FAILED',
        });
      return { Authorization: secret('Bearer t-round-trip') };
    },
    operations: ({ platform }) => ({
      serverInfo: platform.serverInfo(() => ({
        maxResults: 100,
        integrationUserInfo: { fieldInternalName: 'username', userDataType: 'USERNAME_AS_USER' },
      })),
      projects: platform.projects(({ query }) =>
        readWindow(query, { all: () => [{ id: 'SANDBOX', name: 'Sandbox' }] }),
      ),
      entityTypes: platform.entityTypes(() => [
        { id: 'issue', name: 'Issue', direction: 'BOTH', pollerType: 'ENTITY_WISE_HISTORY' },
      ]),
      entityType: platform.entityType(() => ({
        history: { revisionDateFormat: HISTORY_DATE },
        attachments: {
          fieldNameInfo: { idFieldName: 'attachmentId', contentUriFieldName: 'contentUri' },
        },
        comments: { fieldNameInfo: { bodyFieldName: 'text' } },
        ...(flaws.idName === undefined ? {} : { fieldNameInfo: { idFieldName: flaws.idName } }),
        searchEntityInfo: { dateTimeFormat: UPDATED },
        fields: [
          { id: 'due', dataType: 'DATE', dateFormat: 'yyyy-MM-dd' },
          { id: 'updated', dataType: 'DATE_TIME', dateFormat: UPDATED },
        ],
      })),
      getEntity: platform.getEntity(({ params }) => ({
        fields: entities.get(params.entityId) ?? {},
      })),
      addComment: platform.addComment(({ params, body }) => {
        comments.push({ entityId: params.entityId, text: String(body.text) });
        return { id: String(comments.length) };
      }),
      getComments: platform.getComments(({ params }) => ({
        nextPageLinkSupported: false,
        comments: comments
          .filter((comment) => comment.entityId === params.entityId)
          .map((comment) => ({ text: comment.text })),
      })),
      createEntity: platform.createEntity(({ body }) => {
        const id = `I-${++next}`;
        const entity = { ...body.fields, [ID]: id, updated: stamp() };
        entities.set(id, entity);
        return { fields: entity };
      }),
      updateEntity: platform.updateEntity(({ params, body }) => {
        const entity =
          flaws.replacesOnUpdate === true
            ? { ...body.fields, [ID]: params.entityId, updated: stamp() }
            : { ...entities.get(params.entityId), ...body.fields, updated: stamp() };
        entities.set(params.entityId, entity);
        revisions.push({
          entityId: params.entityId,
          revisionId: String(revisions.length + 1),
          at: Date.now(),
          by: flaws.displayNames === true ? 'Alice Liddell' : 'alice',
        });
        return { fields: entity };
      }),
      searchEntities: platform.searchEntities(async ({ query, body }) => {
        const { ids, after = 0, until } = trackerSearch(body.query, flaws);
        const time = (entity: Record<string, unknown>) =>
          parseJavaDate(String(entity.updated), UPDATED, 'UTC').getTime();
        const byTime = [...entities.values()]
          .filter((entity) => ids === undefined || ids.includes(String(entity[ID])))
          .sort((a, b) => time(a) - time(b) || String(a[ID]).localeCompare(String(b[ID])));
        if (flaws.offsetSearch === true)
          return {
            nextPageLinkSupported: false,
            entities: (
              await readWindow(query, {
                all: () =>
                  byTime.filter(
                    (entity) => time(entity) > after && time(entity) <= (until ?? Infinity),
                  ),
              })
            ).map((fields) => ({ fields })),
          };
        const { items, ...paging } = await pollWindow(
          { ...query, since: after, until },
          { all: (from) => byTime.filter((entity) => time(entity) >= from) },
          { updated: time, id: (entity) => String(entity[ID]), overlapMs: 0, maxResults: 100 },
        );
        return { ...paging, entities: items.map((fields) => ({ fields })) };
      }),
      deleteEntity: platform.deleteEntity(({ params }) => {
        entities.delete(params.entityId);
      }),
      entityHistory: platform.entityHistory(async ({ query }) => {
        const since = parseJavaDate(query.since, HISTORY_DATE, 'UTC').getTime();
        const asRevision = (revision: (typeof revisions)[number]) => ({
          entityId: revision.entityId,
          revisionId: revision.revisionId,
          updatedBy: revision.by,
          revisionDateTime: formatJavaDate(revision.at, HISTORY_DATE, 'UTC'),
          revisionType: 'UPDATE' as const,
        });
        const matching = revisions.filter(
          (revision) =>
            revision.at >= since &&
            (query.entityId === undefined || revision.entityId === query.entityId),
        );
        if (flaws.newestFirstPaging === true) {
          const newestFirst = [...matching].reverse();
          const window = newestFirst.slice(query.startIndex, query.startIndex + query.maxResults);
          return {
            nextPageLinkSupported: false,
            revisions: window.reverse().map(asRevision),
          };
        }
        return {
          nextPageLinkSupported: false,
          revisions: await readWindow(query, { all: () => matching.map(asRevision) }),
        };
      }),
      // The platform's file passed on as it came, as a connector for Redmine's uploads.json does.
      createAttachment: platform.createAttachment(async ({ params, body, signal, log }) => {
        const name = `${params.entityId}-${++next}`;
        await createEndSystemClient({
          baseUrl: store.url,
          egress: LOOPBACK_EGRESS,
          signal,
          log,
          chunkedUploads: flaws.chunked === true,
        })
          .put(`files/${encodeURIComponent(name)}`, { body: body.file.stream })
          .json();
        return { attachmentId: name, contentUri: name, fileName: body.fileName };
      }),
      attachmentContent: platform.attachmentContent(async ({ query, signal, log }) => {
        const response = await createEndSystemClient({
          baseUrl: store.url,
          egress: LOOPBACK_EGRESS,
          signal,
          log,
        }).get(`files/${encodeURIComponent(query.contentUri)}`);
        return response.body ?? new Uint8Array(0);
      }),
    }),
  });
  return { connector, entities };
}

const CONFIG = {
  url: 'https://tracker.example',
  username: 'alice',
  password: { value: 'wonderland-42', sensitive: true },
};
const ROUND_TRIP = {
  create: { subject: 'conformance', due: '2026-12-24', labels: ['b', 'a'] },
  update: { subject: 'changed' },
};
const ONLY = [
  'platform.entity-round-trip',
  'platform.search-round-trip',
  'platform.search-polling',
  'platform.history-polling',
  'platform.attachment-round-trip',
  'platform.own-change-identity',
];

describe.skipIf(pythonMissing !== undefined)(
  needsPython('round trips through a real end system'),
  () => {
    let store: WsgiFileStore;
    beforeAll(async () => {
      store = await startWsgiFileStore();
    });
    afterAll(() => store?.stop());

    async function judge(flaws: Flaws, options: Partial<ConformanceOptions> = {}) {
      const { connector, entities } = trackerConnector(store, flaws);
      const results = await checkResults(
        {
          target: connector,
          config: CONFIG,
          handlerOptions: { egress: LOOPBACK_EGRESS },
          platform: { roundTrip: ROUND_TRIP },
          ...options,
        },
        ONLY,
      );
      return { results, entities };
    }

    it('passes a connector that stores files whole and names its own changes by user name', async () => {
      const { results, entities } = await judge({});
      expectPassed(results, ONLY);
      expect(results['platform.entity-round-trip']?.message).toBeUndefined();
      // What the checks created, they deleted.
      expect(entities.size).toBe(0);
    });

    it('fails one whose end system stores the upload with its chunked framing, naming the first differing byte', async () => {
      const { results } = await judge({ chunked: true });
      expectFailed(results['platform.attachment-round-trip'], [
        /^The uploaded file \(100003 bytes, every byte value\) read back as \d+ bytes, different from byte 0 on/,
        'chunkedUploads',
      ]);
    });

    it('fails one whose update drops the fields it was not sent', async () => {
      const { results } = await judge({ replacesOnUpdate: true });
      expectFailed(results['platform.entity-round-trip'], [
        `'due': sent "2026-12-24", read nothing (not sent with the change); 'labels': sent ["b","a"], read nothing (not sent with the change)`,
      ]);
    });

    it('fails one whose history windows are cut by offset from a newest-first list', async () => {
      const { results } = await judge({ newestFirstPaging: true });
      expectFailed(results['platform.history-polling'], [
        /gave revision '\d+'(, '\d+')* twice in one walk/,
      ]);
    });

    it('fails one whose "updated since" search is cut by offset, naming the entity the platform would miss', async () => {
      const { results } = await judge({ offsetSearch: true });
      expectPassed(results, ['platform.search-round-trip']);
      expectFailed(results['platform.search-polling'], [
        /the platform would miss entity 'I-\d+'\. A change between/,
        'pollWindow',
      ]);
    });

    it('fails one whose search by id finds nothing, naming the query', async () => {
      const { results } = await judge({ idSearchMisses: true });
      expectFailed(results['platform.search-round-trip'], [
        /^A search for id EQUALS 'I-\d+', the platform's lookup by id, did not find entity 'I-\d+' just created \(0 answered\)/,
      ]);
    });

    it("fails one whose history names the integration user's own change by display name", async () => {
      const { results } = await judge({ displayNames: true });
      expectFailed(results['platform.own-change-identity'], OWN_CHANGE_BY_DISPLAY_NAME);
    });

    it("reads the new entity's id under the entity type's fieldNameInfo.idFieldName", async () => {
      const { results, entities } = await judge({ idName: 'key' });
      expectPassed(results, ONLY);
      expect(entities.size).toBe(0);
    });

    it('writes nothing unless told where and what', async () => {
      const { results, entities } = await judge({}, { platform: {} });
      for (const id of ONLY)
        expect(results[id]).toMatchObject({
          status: 'skipped',
          message: expect.stringContaining('the kit writes to the end system only when told'),
        });
      expect(entities.size).toBe(0);
    });
  },
);
