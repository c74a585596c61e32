import { javaDatePatternProblem, type PlatformOperationName } from '@connector-sdk/core';
import type { ConformanceCheck } from './check-helpers.js';
import { ConformanceFailure } from '../conformance-failure.js';
import {
  UNLISTED,
  callDeclared,
  expectShape,
  noneServed,
  projectToRead,
} from './platform-check-helpers.js';

/** The parts of one entity type's metadata this check reads. */
interface EntityTypeMetadata {
  readonly fields?: readonly { readonly internalName?: unknown; readonly dateFormat?: unknown }[];
  readonly history?: {
    readonly revisionDateFormat?: unknown;
    readonly separateHistoryApis?: unknown;
  };
  readonly searchEntityInfo?: { readonly dateTimeFormat?: unknown };
  readonly comments?: { readonly createUpdateDateFormat?: unknown };
  readonly attachments?: { readonly createUpdateDateFormat?: unknown };
  readonly links?: { readonly createUpdateDateFormat?: unknown };
  readonly recovery?: { readonly type?: unknown };
  readonly multiStepUpdate?: unknown;
}

/** Every date pattern an entity type declares, with where it stands. */
function datePatterns(type: EntityTypeMetadata): [where: string, pattern: unknown][] {
  return [
    ...(type.fields ?? []).map(
      (field, i) => [`fields.${i}.dateFormat`, field.dateFormat] as [string, unknown],
    ),
    ['history.revisionDateFormat', type.history?.revisionDateFormat],
    ['searchEntityInfo.dateTimeFormat', type.searchEntityInfo?.dateTimeFormat],
    ['comments.createUpdateDateFormat', type.comments?.createUpdateDateFormat],
    ['attachments.createUpdateDateFormat', type.attachments?.createUpdateDateFormat],
    ['links.createUpdateDateFormat', type.links?.createUpdateDateFormat],
  ];
}

/** The operations an entity type's metadata makes required, and why. */
function requiredBy(type: EntityTypeMetadata): [PlatformOperationName, string][] {
  const required: [PlatformOperationName, string][] = [];
  if (type.recovery?.type === 'HISTORY_BASED')
    required.push(['entityHistory', "declares recovery type 'HISTORY_BASED'"]);
  if (type.multiStepUpdate === 'DYNAMIC_SUB_STEPS')
    required.push(['subStepsForUpdate', "declares multiStepUpdate 'DYNAMIC_SUB_STEPS'"]);
  const separate = Array.isArray(type.history?.separateHistoryApis)
    ? (type.history.separateHistoryApis as unknown[])
    : [];
  const apis = {
    ATTACHMENTS: 'attachmentHistory',
    COMMENTS: 'commentHistory',
    LINKS: 'linkHistory',
  } as const;
  for (const [kind, operation] of Object.entries(apis))
    if (separate.includes(kind))
      required.push([operation, `lists '${kind}' in history.separateHistoryApis`]);
  return required;
}

/**
 * The entity types the connector lists, and what each one's metadata promises: the platform reads an entity
 * type's date patterns and calls the operations it makes required, so a wrong one fails only in production.
 */
export const entityTypeCheck: ConformanceCheck = {
  id: 'platform.entity-types',
  name: 'entity types have the documented shape, date patterns that can be read, and the operations they make required',
  async run(run) {
    const declared = run.platformOperations?.routes;
    if (declared === undefined) return { skipped: UNLISTED };
    const types = declared.get('entityTypes');
    if (types === undefined) return { skipped: noneServed(run, 'no platform.entityTypes') };
    const platform = run.simulator();
    const projectId = await projectToRead(run, platform, declared);
    if (projectId === undefined)
      return {
        skipped:
          'no project to list entity types in: serve platform.projects, or give platform: { projectId }',
      };
    const listed = expectShape(
      'entityTypes',
      await callDeclared(platform, types, { query: { projectId } }),
    ) as { id: string }[];
    if (listed.length === 0)
      throw new ConformanceFailure(
        `platform.entityTypes answered no entity type for project '${projectId}': the platform has nothing to synchronise.`,
      );
    const one = declared.get('entityType');
    if (one === undefined)
      return {
        note: `not run: the date patterns and required operations of each entity type (${noneServed(run, "no platform.entityType to read an entity type's metadata")})`,
      };
    // Enough types to find a mistake, few enough to keep the kit quick against a large end system.
    for (const { id } of listed.slice(0, 20)) {
      const type = expectShape(
        'entityType',
        await callDeclared(platform, one, { query: { projectId }, params: { entityTypeId: id } }),
      ) as EntityTypeMetadata;
      for (const [where, pattern] of datePatterns(type)) {
        if (pattern === undefined) continue;
        const problem =
          typeof pattern === 'string' ? javaDatePatternProblem(pattern) : 'is not text';
        if (problem !== undefined)
          throw new ConformanceFailure(
            `Entity type '${id}': ${where} "${String(pattern).slice(0, 80)}" cannot be read as a Java date pattern: ${problem}. The platform writes and reads dates with it.`,
          );
      }
      for (const [operation, why] of requiredBy(type))
        if (!declared.has(operation))
          throw new ConformanceFailure(
            `Entity type '${id}' ${why}, so the platform calls platform.${operation}, which the connector does not serve.`,
          );
    }
    return undefined;
  },
};
