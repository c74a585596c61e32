import {
  createHandler,
  defineConnector,
  field,
  readWindow,
  secret,
  type PlatformAnswer,
  type PlatformOperationName,
} from '@connector-sdk/core';
import { serve, type ConnectorServer } from '@connector-sdk/node';
import { afterAll, describe, expect, it } from 'vitest';
import type { ConnectorTarget } from '../../simulator/transport.js';
import type { ConformanceOptions } from '../conformance-run.js';
import { runConformance } from '../run-conformance.js';
import { LOOPBACK_EGRESS } from '../../../test/records-connector.js';

const PROJECTS = Array.from({ length: 7 }, (_, i) => ({ id: `P${i}`, name: `Project ${i}` }));

interface Variant {
  readonly metadataFields?: PlatformAnswer<'connectorMetadata'>['fields'];
  readonly userField?: string;
  readonly ignoreWindow?: boolean;
  readonly noCap?: boolean;
  readonly revisions?: readonly [string, string, string][];
  /** Serve entity history off the catalog's path. */
  readonly historyPath?: string;
  /** More of the entity type's metadata. */
  readonly typeMetadata?: Record<string, unknown>;
  /** Serve attachment create with a free-form builder that reads no body, at the catalog's path. */
  readonly freeFormUpload?: boolean;
  /** How many projects it lists. @default 7 */
  readonly projectCount?: number;
  /** Serve no entityType, so no entity type's metadata can be read. */
  readonly noEntityType?: boolean;
}

/** Revisions as [revisionDateTime, entityId, revisionId], in the declared pattern, in the right order. */
const REVISIONS: [string, string, string][] = [
  ['2026-11-01 08:00', 'A-2', '1'],
  ['2026-11-01 08:00', 'A-2', '2'],
  ['2026-11-01 08:00', 'A-3', '1'],
  ['2026-11-02 09:30', 'A-1', '7'],
];

/** A connector declaring configuration info and projects, broken as the variant says. */
function catalogConnector(variant: Variant = {}) {
  return defineConnector({
    name: 'catalog-checks',
    version: '1',
    config: { url: field.url(), apiKey: field.secret(), label: field.string().optional() },
    session: { Authorization: field.secret() },
    initialize: ({ config }) => ({ Authorization: secret(`Key ${config.apiKey}`) }),
    operations: ({ platform, post }) => ({
      createAttachment:
        variant.freeFormUpload === true
          ? post('/entities/:entityTypeId/:entityId/attachments', () => ({ id: 'a-1' }))
          : platform.createAttachment(async ({ body }) => ({
              id: 'a-1',
              contentUri: 'a-1',
              fileName: body.fileName,
              size: (await body.file.bytes()).length,
            })),
      metadata: platform.connectorMetadata(() => ({
        enableFeatures: [],
        fields: variant.metadataFields ?? [
          { internalName: 'url', displayName: 'URL', required: true, fieldType: 'URL' },
          { internalName: 'apiKey', displayName: 'API key', required: true, fieldType: 'PASSWORD' },
        ],
      })),
      serverInfo: platform.serverInfo(() => ({
        maxResults: 5,
        integrationUserInfo: {
          fieldInternalName: variant.userField ?? 'url',
          userDataType: 'USERNAME_AS_USER',
        },
      })),
      entityTypes: platform.entityTypes(() => [
        { id: 'issue', name: 'Issue', direction: 'BOTH', pollerType: 'ENTITY_WISE_HISTORY' },
      ]),
      ...(variant.noEntityType === true
        ? {}
        : {
            entityType: platform.entityType(() => ({
              history: { revisionDateFormat: 'yyyy-MM-dd HH:mm' },
              fields: [{ internalName: 'due', dataType: 'DATE', dateFormat: 'yyyy-MM-dd' }],
              ...variant.typeMetadata,
            })),
          }),
      entityHistory: platform.entityHistory(
        ({ query }) => {
          // The kit asks from the start of time, in the declared pattern.
          expect(query.since).toBe('1970-01-01 00:00');
          return {
            nextPageLinkSupported: false,
            revisions: (variant.revisions ?? REVISIONS).map(
              ([revisionDateTime, entityId, revisionId]) => ({
                revisionDateTime,
                entityId,
                revisionId,
                updatedBy: 'alice',
                revisionType: 'UPDATE' as const,
              }),
            ),
          };
        },
        variant.historyPath === undefined ? {} : { path: variant.historyPath },
      ),
      projects: platform.projects(({ query }) =>
        variant.ignoreWindow === true
          ? PROJECTS.slice(0, variant.projectCount ?? PROJECTS.length)
          : readWindow(
              query,
              { all: () => PROJECTS.slice(0, variant.projectCount ?? PROJECTS.length) },
              variant.noCap === true ? {} : { maxResults: 5 },
            ),
      ),
    }),
  });
}

const CHECKS = [
  'platform.configuration-info',
  'platform.paging',
  'platform.history-order',
  'platform.parameters',
  'platform.uploads',
  'platform.entity-types',
];

/** What the catalog connector serves: the list a run over HTTP needs. */
const SERVED: PlatformOperationName[] = [
  'connectorMetadata',
  'serverInfo',
  'entityTypes',
  'entityType',
  'entityHistory',
  'projects',
  'createAttachment',
];

const servers: ConnectorServer[] = [];
afterAll(() => Promise.all(servers.map((server) => server.close())));

/** Serves the connector with @connector-sdk/node on a free port and answers its base URL. */
async function served(variant: Variant = {}): Promise<string> {
  const server = await serve(catalogConnector(variant), {
    port: 0,
    host: '127.0.0.1',
    egress: LOOPBACK_EGRESS,
  });
  servers.push(server);
  return server.url;
}

type Via = 'in-process' | 'over HTTP';

const run = async (
  variant: Variant = {},
  via: Via = 'in-process',
  platform: ConformanceOptions['platform'] = via === 'in-process'
    ? undefined
    : { operations: SERVED },
) =>
  runConformance(
    {
      target: via === 'in-process' ? catalogConnector(variant) : await served(variant),
      config: { url: 'https://acme.example', apiKey: { value: 'key-1234-abcd', sensitive: true } },
      ...(platform === undefined ? {} : { platform }),
    },
    { only: CHECKS },
  );

const statuses = (results: readonly { id: string; status: string }[]) =>
  results.map((result) => [result.id, result.status]);

// The same checks, with the same messages, whether the kit serves the connector or reaches it by URL with
// the list of what it serves: a connector is judged by the contract, not by how the kit reaches it
// (ARCHITECTURE.md, D24).
describe.each<Via>(['in-process', 'over HTTP'])('the platform checks, %s', (via) => {
  it('pass for a connector that keeps the catalog', async () => {
    expect(statuses(await run({}, via))).toEqual(CHECKS.map((id) => [id, 'passed']));
  });

  it.each([
    [
      'metadata without a required configuration field',
      {
        metadataFields: [
          { internalName: 'url', displayName: 'URL', required: true, fieldType: 'URL' },
        ],
      },
      'platform.configuration-info',
      {
        'in-process':
          "The configuration field 'apiKey' is required, but the connector metadata has no field with internalName 'apiKey'",
        // Over HTTP the kit cannot read the connector's fields: the configuration's entries stand for them.
        'over HTTP':
          "The configuration holds 'apiKey', but the connector metadata has no field with internalName 'apiKey'",
      },
    ],
    [
      'a secret field shown as plain text',
      {
        metadataFields: [
          { internalName: 'url', displayName: 'URL', required: true, fieldType: 'URL' },
          { internalName: 'apiKey', displayName: 'API key', required: true, fieldType: 'TEXT_BOX' },
        ],
      },
      'platform.configuration-info',
      {
        'in-process':
          "'apiKey' is a secret field, but the connector metadata shows it as TEXT_BOX: make it PASSWORD",
        'over HTTP':
          "'apiKey' is sent as sensitive, but the connector metadata shows it as TEXT_BOX: make it PASSWORD",
      },
    ],
    [
      'server info naming no metadata field',
      { userField: 'login' },
      'platform.configuration-info',
      "integrationUserInfo.fieldInternalName is 'login', which names no field",
    ],
    [
      'a list that answers everything',
      { ignoreWindow: true },
      'platform.paging',
      'projects with startIndex=0&maxResults=2 answered 7 projects',
    ],
    [
      'a list without the server-info cap',
      { noCap: true },
      'platform.paging',
      "projects with maxResults=6, over server-info's 5 answered 200",
    ],
    [
      'an entity type with a date pattern that cannot be read',
      {
        typeMetadata: {
          fields: [{ internalName: 'due', dataType: 'DATE', dateFormat: "yyyy-MM-dd 'at" }],
        },
      },
      'platform.entity-types',
      `Entity type 'issue': fields.0.dateFormat "yyyy-MM-dd 'at" cannot be read as a Java date pattern`,
    ],
    [
      'an entity type with dynamic sub-steps and no sub-steps operation',
      { typeMetadata: { multiStepUpdate: 'DYNAMIC_SUB_STEPS' } },
      'platform.entity-types',
      "Entity type 'issue' declares multiStepUpdate 'DYNAMIC_SUB_STEPS', so the platform calls platform.subStepsForUpdate, which the connector does not serve",
    ],
    [
      'history out of order',
      { revisions: [REVISIONS[0], REVISIONS[2], REVISIONS[1]] as [string, string, string][] },
      'platform.history-order',
      'History revision 3 (A-2/2) comes after A-3/1 but sorts before it',
    ],
    [
      'numeric revision ids in number order, without saying they are numbers',
      {
        revisions: [
          ['2026-11-01 08:00', 'A-1', '9'],
          ['2026-11-01 08:00', 'A-1', '10'],
        ],
      },
      'platform.history-order',
      'History revision 2 (A-1/10) comes after A-1/9 but sorts before it',
    ],
    [
      'history times in another pattern',
      { revisions: [['2026-11-01T08:00:00Z', 'A-1', '1']] },
      'platform.history-order',
      'revisionDateTime "2026-11-01T08:00:00Z" does not follow the declared pattern "yyyy-MM-dd HH:mm"',
    ],
  ] satisfies [string, Variant, string, string | Record<Via, string>][])(
    'fail for %s, saying what to fix',
    async (_what, variant, id, message) => {
      const result = (await run(variant, via)).find((entry) => entry.id === id);
      expect(result).toMatchObject({
        status: 'failed',
        message: expect.stringContaining(typeof message === 'string' ? message : message[via]),
      });
    },
  );
});

describe('the history order', () => {
  it('takes revision ids as numbers when the entity type says so (isRevisionIdNumeric)', async () => {
    const results = await run({
      typeMetadata: {
        history: { revisionDateFormat: 'yyyy-MM-dd HH:mm', isRevisionIdNumeric: true },
      },
      revisions: [
        ['2026-11-01 08:00', 'A-1', '9'],
        ['2026-11-01 08:00', 'A-1', '10'],
      ],
    });
    expect(results.find((result) => result.id === 'platform.history-order')?.status).toBe('passed');
  });
});

describe('the upload check', () => {
  it('fails for an attachment upload served without the catalog builder, saying what to fix', async () => {
    // The SDK reads a catalog upload itself, so only a connector reached by URL can break it.
    const result = (await run({ freeFormUpload: true }, 'over HTTP')).find(
      (entry) => entry.id === 'platform.uploads',
    );
    expect(result).toMatchObject({
      status: 'failed',
      message: expect.stringContaining(
        'platform.createAttachment (POST /entities/:entityTypeId/:entityId/attachments) answered 400 to a body without fileName, but its message does not name fileName',
      ),
    });
  });
});

describe('the platform checks of a target the kit does not serve', () => {
  it('are skipped without the list, saying which option to set', async () => {
    const results = await run({}, 'over HTTP', {});
    expect(results).toEqual(
      CHECKS.map((id) => ({
        id,
        name: expect.any(String),
        status: 'skipped',
        message:
          'the kit cannot see which platform operations a target it does not serve offers: list them as platform: { operations } (--platform-operations in the CLI)',
      })),
    );
  });

  it('check only what the list names, and say what it leaves out', async () => {
    const results = await run({ noCap: true, ignoreWindow: true }, 'over HTTP', {
      operations: ['connectorMetadata'],
    });
    expect(results.map((result) => [result.id, result.status, result.message])).toEqual([
      ['platform.configuration-info', 'passed', undefined],
      ['platform.paging', 'skipped', 'platform.operations lists no platform.projects'],
      ['platform.history-order', 'skipped', 'platform.operations lists no platform.entityHistory'],
      [
        'platform.parameters',
        'skipped',
        'platform.operations lists no platform operation with a required parameter',
      ],
      [
        'platform.uploads',
        'skipped',
        'platform.operations lists neither platform.createAttachment nor platform.updateAttachment',
      ],
      ['platform.entity-types', 'skipped', 'platform.operations lists no platform.entityTypes'],
    ]);
  });

  it('find an operation the connector moved off the catalog path where platform.paths says', async () => {
    const historyPath = '/entities/:entityTypeId/revisions';
    const moved = await run({ historyPath }, 'over HTTP', {
      operations: SERVED,
      paths: { entityHistory: historyPath },
    });
    expect(statuses(moved)).toEqual(CHECKS.map((id) => [id, 'passed']));
    // Looked for at the catalog's path, it is not there: the list is what the checks call.
    const unmoved = await run({ historyPath }, 'over HTTP');
    expect(unmoved.find((result) => result.id === 'platform.history-order')).toMatchObject({
      status: 'failed',
      message: expect.stringContaining('platform.entityHistory answered 404'),
    });
  });

  it('run for a core handler given the list', async () => {
    const results = await runConformance(
      {
        target: createHandler(catalogConnector(), { egress: LOOPBACK_EGRESS }),
        config: { url: 'https://acme.example', apiKey: { value: 'key-1234', sensitive: true } },
        platform: { operations: SERVED },
      },
      { only: CHECKS },
    );
    expect(statuses(results)).toEqual(CHECKS.map((id) => [id, 'passed']));
  });
});

describe('the platform operations option', () => {
  const options = (
    platform: NonNullable<ConformanceOptions['platform']>,
    target: ConnectorTarget = catalogConnector(),
  ): ConformanceOptions => ({
    target,
    config: { url: 'https://acme.example', apiKey: { value: 'key-1234', sensitive: true } },
    platform,
  });

  it.each([
    [
      { operations: ['project' as PlatformOperationName] },
      "platform.operations names 'project', which is no platform operation of the catalog (did you mean 'projects'?)",
    ],
    [
      { operations: ['toString' as PlatformOperationName] },
      "platform.operations names 'toString', which is no platform operation of the catalog (the names: connectorMetadata, serverInfo, projects,",
    ],
    [
      { operations: 'projects' as unknown as PlatformOperationName[] },
      'platform.operations must be a list of catalog names',
    ],
    [
      { operations: ['projects'], paths: ['/v2/projects'] as never },
      'platform.paths must map names to paths',
    ],
    [
      { operations: ['projects'], paths: { entityHistory: '/entities/:entityTypeId/revisions' } },
      "platform.paths moves 'entityHistory', which platform.operations does not list",
    ],
    [
      { operations: ['entityHistory'], paths: { entityHistory: '/entities/:typeId/revisions' } },
      'platform.paths puts \'entityHistory\' at "/entities/:typeId/revisions": give its path after the base, starting with "/" and naming the parameters of "/entities/:entityTypeId/history" (:entityTypeId)',
    ],
  ] satisfies [NonNullable<ConformanceOptions['platform']>, string][])(
    'is refused before any check runs when it is wrong: %j',
    async (platform, message) => {
      const url = await served();
      await expect(runConformance(options(platform, url))).rejects.toThrow(
        expect.objectContaining({ name: 'TypeError', message: expect.stringContaining(message) }),
      );
    },
  );

  it('must agree with a connector the kit serves, so options shared with a run over HTTP cannot drift', async () => {
    const agreeing = await runConformance(options({ operations: SERVED }), { only: CHECKS });
    expect(statuses(agreeing)).toEqual(CHECKS.map((id) => [id, 'passed']));
    await expect(
      runConformance(
        options({
          operations: ['connectorMetadata', 'serverInfo', 'projects', 'users'],
          paths: { projects: '/all-projects' },
        }),
      ),
    ).rejects.toThrow(
      "platform.operations does not match the connector 'catalog-checks': it puts 'projects' at \"/all-projects\", but the connector serves it at \"/projects\" (set platform.paths); it lists 'users', which the connector does not declare; it leaves out 'entityTypes', 'entityType', 'createAttachment' and 'entityHistory', which the connector declares",
    );
  });
});

// A check that finds nothing to judge says so, instead of passing (ARCHITECTURE.md, D24).
describe.each<Via>(['in-process', 'over HTTP'])(
  'the platform checks with nothing to judge, %s',
  (via) => {
    it('skip the history order on an empty history, naming the project and type read', async () => {
      const results = await run({ revisions: [] }, via);
      expect(results.find((result) => result.id === 'platform.history-order')).toMatchObject({
        status: 'skipped',
        message:
          "no revisions in project 'P0', entity type 'issue' since 1970-01-01 00:00, so there is no order to judge: name a project with history (platform: { projectId, entityTypeId }; --project-id and --entity-type-id in the CLI)",
      });
    });

    it('say the order was not judged on a history of one revision', async () => {
      const results = await run({ revisions: [['2026-11-01 08:00', 'A-2', '1']] }, via);
      expect(results.find((result) => result.id === 'platform.history-order')).toMatchObject({
        status: 'passed',
        message: expect.stringMatching(/^only one revision in project 'P0', entity type 'issue'/),
      });
    });

    it.each([0, 1])(
      'say the windows were not compared when %i projects are listed',
      async (count) => {
        const results = await run({ projectCount: count }, via);
        expect(results.find((result) => result.id === 'platform.paging')).toMatchObject({
          status: 'passed',
          message: `not run: the comparison of two windows (the connector lists ${count} project${count === 1 ? '' : 's'}; it needs 2)`,
        });
      },
    );
  },
);

it("says the entity types' metadata was not read when the connector serves no entityType", async () => {
  const results = await run({ noEntityType: true });
  expect(results.find((result) => result.id === 'platform.entity-types')).toMatchObject({
    status: 'passed',
    message:
      "not run: the date patterns and required operations of each entity type (the connector declares no platform.entityType to read an entity type's metadata)",
  });
});
