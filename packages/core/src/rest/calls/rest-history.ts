// History from an end system's journal of changes: the journal read whole for the platform's range (with the
// filters the journal takes sent along, and applied again here), its entries turned into revisions by the
// declaration's function, then filtered, put in the platform's order and windowed.
import { EndSystemError, ValidationError } from '../../errors/errors.js';
import { readWindow } from '../../platform/paging.js';
import type { PlatformAnswer } from '../../platform/platform-builders.js';
import { formatJavaDate, parseJavaDate } from '../../platform/schemas/java-date.js';
import { parseItem, resolve } from './endpoint.js';
import { listAll } from './entity-list.js';
import type { RestCall } from '../declaration/request-spec.js';
import type { History, RevisionParts, RevisionTools } from '../declaration/part-spec.js';

/** A revision as the platform reads it. */
type Revision = PlatformAnswer<'entityHistory'>['revisions'][number];

/** The platform's history query, as the catalog parses it. */
export interface HistoryQuery {
  readonly projectId: string;
  readonly entityId?: string | undefined;
  readonly since: string;
  readonly maxTime?: string | undefined;
  readonly notUpdatedByUser?: string | undefined;
  readonly orderByDirection?: 'ASC' | 'DESC' | undefined;
  readonly startIndex: number;
  readonly maxResults: number;
}

/** What reading a history needs besides the call: the server info's time zone and cap, and the comment mapping. */
export interface HistoryContext {
  readonly timeZone: string;
  readonly cap: number;
  readonly tools: RevisionTools;
}

function instant(
  text: string,
  name: string,
  at: { readonly pattern: string; readonly timeZone: string },
): number {
  try {
    return parseJavaDate(text, at.pattern, at.timeZone).getTime();
  } catch (error) {
    throw new ValidationError(`'${name}' must follow the pattern ${at.pattern}`, {
      cause: error,
    });
  }
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The platform's window of a history.
 *
 * @internal
 */
export async function readHistory<S>(
  history: History<S>,
  call: RestCall<S>,
  read: { readonly query: HistoryQuery; readonly context: HistoryContext },
) {
  const { query, context } = read;
  const { spec } = history;
  const at = { pattern: history.spec.dateFormat, timeZone: context.timeZone };
  const since = instant(query.since, 'since', at);
  const until = query.maxTime === undefined ? Infinity : instant(query.maxTime, 'maxTime', at);
  const filters = spec.filters ?? {};
  const sent: Record<string, string | undefined> = {};
  if (filters.projectId !== undefined) sent[filters.projectId] = query.projectId;
  if (filters.entityId !== undefined) sent[filters.entityId] = query.entityId;
  if (filters.since !== undefined) sent[filters.since] = new Date(since).toISOString();
  if (filters.until !== undefined && until !== Infinity)
    sent[filters.until] = new Date(until).toISOString();
  const list = {
    ...spec.list,
    query: (inner: RestCall<S>) => ({
      ...(spec.list.query === undefined ? {} : resolve(spec.list.query, inner)),
      ...sent,
    }),
  };
  const time = (revision: { readonly revisionDateTime: string }) =>
    parseJavaDate(revision.revisionDateTime, history.spec.dateFormat, context.timeZone).getTime();
  const revisions = await readWindow(
    query,
    {
      all: async () => {
        const seen = new Map<string, Revision>();
        for (const entry of await listAll(call, list)) {
          const parts = spec.revision(
            parseItem(history.schema, entry, 'history entry'),
            context.tools,
          );
          if (parts === undefined) continue;
          const { at, entityId, revisionId, updatedBy, revisionType, ...rest } =
            parts as RevisionParts;
          const when = new Date(at).getTime();
          if (Number.isNaN(when))
            throw new EndSystemError(
              `The end system's journal has a change of '${entityId}' (revision ${revisionId}) at no valid time`,
            );
          if (when < since || when > until) continue;
          if (query.entityId !== undefined && entityId !== query.entityId) continue;
          if (query.notUpdatedByUser !== undefined && updatedBy === query.notUpdatedByUser)
            continue;
          // An entry made while the journal is read can show twice (pages shift): once per revision.
          seen.set(JSON.stringify([entityId, revisionId]), {
            entityId,
            revisionId,
            updatedBy,
            revisionDateTime: formatJavaDate(when, history.spec.dateFormat, context.timeZone),
            revisionType,
            ...rest,
          });
        }
        const byRevision =
          spec.numericRevisionIds === true
            ? (a: string, b: string) => Number(a) - Number(b)
            : compareText;
        // The platform's order: by time as written (a coarse pattern makes ties), then entity id, then revision.
        const ordered = [...seen.values()]
          .map((revision) => ({ revision, time: time(revision) }))
          .sort(
            (a, b) =>
              a.time - b.time ||
              compareText(a.revision.entityId, b.revision.entityId) ||
              byRevision(a.revision.revisionId, b.revision.revisionId),
          )
          .map(({ revision }) => revision);
        return query.orderByDirection === 'DESC' ? ordered.reverse() : ordered;
      },
    },
    { maxResults: context.cap },
  );
  return { nextPageLinkSupported: false, revisions };
}
