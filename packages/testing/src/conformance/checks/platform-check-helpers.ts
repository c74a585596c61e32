import {
  PLATFORM_OPERATIONS,
  formatJavaDate,
  type PlatformOperationName,
  type z,
} from '@connector-sdk/core';
import type { PlatformSimulator } from '../../simulator/platform-simulator.js';
import type { SimulatorResponse } from '../../simulator/simulator-types.js';
import { ConformanceFailure } from '../conformance-failure.js';
import type { ConformanceRun } from '../conformance-run.js';
import type { DeclaredOperation as Declared } from '../declared-operations.js';

// What the platform checks share: why they skip, how they call a declared operation, how they check its answer.

/**
 * Why the platform checks cannot run against a URL or a handler without `platform.operations`: neither says
 * which operations it serves, and a check with nothing to judge says so instead of passing
 * (ARCHITECTURE.md, D24).
 */
export const UNLISTED =
  'the kit cannot see which platform operations a target it does not serve offers: list them as platform: { operations } (--platform-operations in the CLI)';

/** Why a check is skipped when the operation it needs is not served: "the connector declares no …". */
export const noneServed = (run: ConformanceRun, what: string) =>
  `${run.platformOperations?.source === 'list' ? 'platform.operations lists' : 'the connector declares'} ${what}`;

/** Fills a route pattern's parameters from `params`, the others with a placeholder id. */
export const pathOf = (pattern: string, params: Readonly<Record<string, string>> = {}) =>
  pattern.replace(/:([A-Za-z_$][\w$]*)/g, (_, name: string) =>
    encodeURIComponent(params[name] ?? 'conformance-id'),
  );

/** Fails unless the answer has the shape the platform operation declares, naming the wrong values. */
export function expectShape(name: PlatformOperationName, response: SimulatorResponse): unknown {
  const schema = (PLATFORM_OPERATIONS[name] as { readonly answer?: z.ZodType }).answer;
  if (response.status !== 200)
    throw new ConformanceFailure(
      `platform.${name} answered ${response.status}${response.code === undefined ? '' : ` ${response.code}`}; expected 200 with its answer.`,
    );
  if (schema === undefined) return response.body;
  const result = schema.safeParse(response.body);
  if (result.success) return response.body;
  const problems = result.error.issues
    .slice(0, 5)
    .map((issue) => `'${['answer', ...issue.path].join('.')}': ${issue.message}`);
  throw new ConformanceFailure(
    `platform.${name} answered what the platform cannot read: ${problems.join('; ')}. Answer the documented shape (see PLATFORM_OPERATIONS).`,
  );
}

/** What a call of a declared platform operation sends besides the session. */
export interface DeclaredCall {
  /** The query. @default {} */
  readonly query?: Readonly<Record<string, string>>;
  /** The ids of its path; those not given are filled with a placeholder. @default {} */
  readonly params?: Readonly<Record<string, string>>;
}

/** Calls a declared platform operation at its path, ids filled from `call.params`. */
export async function callDeclared(
  platform: PlatformSimulator,
  declared: Declared,
  call: DeclaredCall = {},
): Promise<SimulatorResponse> {
  const { query = {}, params = {} } = call;
  return platform.call({ method: declared.method, path: pathOf(declared.pattern, params), query });
}

/** A project to read in: from the options, else the first one the connector lists. */
export async function projectToRead(
  run: ConformanceRun,
  platform: PlatformSimulator,
  declared: ReadonlyMap<PlatformOperationName, Declared>,
): Promise<string | undefined> {
  const projectId = run.options.platform?.projectId;
  const projects = declared.get('projects');
  if (projectId !== undefined || projects === undefined) return projectId;
  const listed = expectShape(
    'projects',
    await callDeclared(platform, projects, { query: { startIndex: '0', maxResults: '1' } }),
  ) as { id: string | number }[];
  return listed[0] === undefined ? undefined : String(listed[0].id);
}

/** A project and entity type to read history in: from the options, else the first ones the connector lists. */
export async function scope(
  run: ConformanceRun,
  platform: PlatformSimulator,
  declared: ReadonlyMap<PlatformOperationName, Declared>,
): Promise<{ projectId: string; entityTypeId: string } | undefined> {
  const projectId = await projectToRead(run, platform, declared);
  let entityTypeId = run.options.platform?.entityTypeId;
  const types = declared.get('entityTypes');
  if (entityTypeId === undefined && types !== undefined && projectId !== undefined) {
    const listed = expectShape(
      'entityTypes',
      await callDeclared(platform, types, { query: { projectId } }),
    ) as {
      id: string;
    }[];
    entityTypeId = listed[0]?.id;
  }
  return projectId === undefined || entityTypeId === undefined
    ? undefined
    : { projectId, entityTypeId };
}

/** Why a history check is skipped when it has no project and entity type to read in. */
export const NO_HISTORY_SCOPE =
  'no project and entity type to read history in: give platform: { projectId, entityTypeId }, or declare platform.projects and platform.entityTypes';

/** How an entity type's history is read: its revision time pattern and zone, and how revision ids compare. */
export interface HistoryDates {
  readonly pattern: string;
  readonly timeZone: string;
  /** Revision ids compare as numbers ("10" after "9"), as the entity type declares. */
  readonly numericRevisions: boolean;
}

/** The metadata of the entity type, as `platform.entityType` answers it; none when it is not served. */
export async function entityTypeOf(
  platform: PlatformSimulator,
  declared: ReadonlyMap<PlatformOperationName, Declared>,
  where: { readonly projectId: string; readonly entityTypeId: string },
): Promise<Readonly<Record<string, unknown>>> {
  const route = declared.get('entityType');
  if (route === undefined) return {};
  return expectShape(
    'entityType',
    await callDeclared(platform, route, {
      query: { projectId: where.projectId },
      params: { entityTypeId: where.entityTypeId },
    }),
  ) as Record<string, unknown>;
}

/** The time zone server info declares for dates without an offset; UTC without server info. */
export async function serverTimeZone(
  platform: PlatformSimulator,
  declared: ReadonlyMap<PlatformOperationName, Declared>,
): Promise<string> {
  const route = declared.get('serverInfo');
  if (route === undefined) return 'UTC';
  const info = expectShape('serverInfo', await callDeclared(platform, route)) as {
    timeZone?: string;
  };
  return info.timeZone ?? 'UTC';
}

/** The pattern and zone history dates are written in, as the entity type and server info declare them. */
export async function historyDates(
  platform: PlatformSimulator,
  declared: ReadonlyMap<PlatformOperationName, Declared>,
  where: { readonly projectId: string; readonly entityTypeId: string },
): Promise<HistoryDates> {
  const { history } = (await entityTypeOf(platform, declared, where)) as {
    history?: { revisionDateFormat?: string; isRevisionIdNumeric?: boolean };
  };
  return {
    pattern: history?.revisionDateFormat ?? "yyyy-MM-dd'T'HH:mm:ss.SSSXXX",
    timeZone: await serverTimeZone(platform, declared),
    numericRevisions: history?.isRevisionIdNumeric === true,
  };
}

/** Reads entity history from the start of time, in the declared pattern: one window of `maxResults`. */
export function historyFromStart(
  platform: PlatformSimulator,
  history: Declared,
  input: {
    readonly where: { readonly projectId: string; readonly entityTypeId: string };
    readonly dates: HistoryDates;
    readonly maxResults: number;
  },
): Promise<SimulatorResponse> {
  const { where, dates } = input;
  return callDeclared(platform, history, {
    query: {
      projectId: where.projectId,
      since: formatJavaDate(0, dates.pattern, dates.timeZone),
      startIndex: '0',
      maxResults: String(input.maxResults),
    },
    params: { entityTypeId: where.entityTypeId },
  });
}
