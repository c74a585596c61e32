import {
  defineConnector,
  field,
  readWindow,
  secret,
  type PlatformAnswer,
} from '@connector-sdk/core';
import { describe, expect, it } from 'vitest';
import { runConformance } from './run-conformance.js';

const PROJECTS = Array.from({ length: 7 }, (_, i) => ({ id: `P${i}`, name: `Project ${i}` }));

interface Variant {
  readonly metadataFields?: PlatformAnswer<'connectorMetadata'>['fields'];
  readonly userField?: string;
  readonly ignoreWindow?: boolean;
  readonly noCap?: boolean;
  readonly revisions?: readonly [string, string, string][];
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
    operations: ({ platform }) => ({
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
      entityType: platform.entityType(() => ({
        history: { revisionDateFormat: 'yyyy-MM-dd HH:mm' },
      })),
      entityHistory: platform.entityHistory(({ query }) => {
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
      }),
      projects: platform.projects(({ query }) =>
        variant.ignoreWindow === true
          ? PROJECTS
          : readWindow(
              query,
              { all: () => PROJECTS },
              variant.noCap === true ? {} : { maxResults: 5 },
            ),
      ),
    }),
  });
}

const run = async (variant?: Variant) =>
  runConformance(
    {
      target: catalogConnector(variant),
      config: { url: 'https://acme.example', apiKey: { value: 'key-1234-abcd', sensitive: true } },
    },
    {
      only: [
        'platform.configuration-info',
        'platform.paging',
        'platform.history-order',
        'platform.parameters',
      ],
    },
  );

describe('the platform checks', () => {
  it('pass for a connector that keeps the catalog', async () => {
    expect((await run()).map((result) => [result.id, result.status])).toEqual([
      ['platform.configuration-info', 'passed'],
      ['platform.paging', 'passed'],
      ['platform.history-order', 'passed'],
      ['platform.parameters', 'passed'],
    ]);
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
      "The configuration field 'apiKey' is required, but the connector metadata has no field with internalName 'apiKey'",
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
      "'apiKey' is a secret field, but the connector metadata shows it as TEXT_BOX",
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
      'history out of order',
      { revisions: [REVISIONS[0], REVISIONS[2], REVISIONS[1]] as [string, string, string][] },
      'platform.history-order',
      'History revision 3 (A-2/2) comes after A-3/1 but sorts before it',
    ],
    [
      'history times in another pattern',
      { revisions: [['2026-11-01T08:00:00Z', 'A-1', '1']] },
      'platform.history-order',
      'revisionDateTime "2026-11-01T08:00:00Z" does not follow the declared pattern "yyyy-MM-dd HH:mm"',
    ],
  ] satisfies [string, Variant, string, string][])(
    'fail for %s, saying what to fix',
    async (_what, variant, id, message) => {
      const result = (await run(variant)).find((entry) => entry.id === id);
      expect(result).toMatchObject({ status: 'failed', message: expect.stringContaining(message) });
    },
  );
});
