// The history of issues and of their comments, as the platform reads it: from the tracker's changelog, in the
// platform's order, with its filters and its window.
import {
  ConnectorError,
  parseJavaDate,
  readWindow,
  type PLATFORM_OPERATIONS,
  type PlatformAnswer,
  type PlatformBuilders,
  type PlatformOperationContext,
} from '@connector-sdk/core';
import { asPlatformComment } from './platform-comments.js';
import {
  DATE_FORMAT,
  SERVER_INFO,
  fromPlatformDate,
  toPlatformDate,
} from './platform-formats.js';
import { trackerFor, type TrackerSession } from '../../src/tracker-client.js';
import type { ChangelogEntry } from '../../src/tracker/tracker-changelog.js';

/** A page of the tracker's changelog, as it answers one. */
interface ChangelogPage {
  readonly perPage: number;
  readonly total: number;
  readonly entries: readonly ChangelogEntry[];
}

type Revision = PlatformAnswer<'entityHistory'>['revisions'][number];

/** What a history handler receives: entity and comment history take the same query. */
type HistoryCall = PlatformOperationContext<
  TrackerSession,
  (typeof PLATFORM_OPERATIONS)['entityHistory']
>;

/** The most changelog pages one history window reads before it gives up (100 entries a page). */
const MAX_PAGES = 50;

/**
 * The changelog entries in a range, all of them: the tracker lists newest first and the platform reads oldest
 * first, so no page of the tracker's is a window of the platform's.
 */
async function readChangelog(
  call: Omit<HistoryCall, 'query' | 'params'>,
  filter: Readonly<Record<string, string | undefined>>,
): Promise<ChangelogEntry[]> {
  // By id: an entry made while we read pushes the older ones down a page, which would repeat one of them.
  const entries = new Map<number, ChangelogEntry>();
  for (let page = 1; page <= MAX_PAGES; page++) {
    const answer = await trackerFor(call)
      .get('changelog', { searchParams: { ...filter, page, perPage: 100 } })
      .json<ChangelogPage>();
    for (const entry of answer.entries) entries.set(entry.id, entry);
    if (answer.entries.length === 0 || page * answer.perPage >= answer.total)
      return [...entries.values()];
  }
  throw new ConnectorError(
    'END_SYSTEM_ERROR',
    `The tracker has more than ${MAX_PAGES * 100} changes in this range: read history since a later time`,
  );
}

/** A changelog entry as one revision of the platform's history, its time in the declared pattern. */
const asRevision = (entry: ChangelogEntry): Revision => ({
  entityId: entry.issue,
  revisionId: String(entry.revision),
  updatedBy: entry.author,
  revisionDateTime: toPlatformDate(entry.at),
  revisionType: entry.action === 'created' ? 'CREATE' : 'UPDATE',
  fieldsChangedInRevision: Object.fromEntries(
    entry.items.map(({ field, from, to }) => [
      field,
      { oldValue: from, newValue: to },
    ]),
  ),
  ...(entry.comment && {
    commentRevision: {
      oldValue: [],
      newValue: [asPlatformComment(entry.comment)],
    },
  }),
});

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The platform's order: oldest first by revisionDateTime as written (a pattern coarser than the tracker's clock
 * makes ties, and the ids then decide), then entity id, then revision id (the issue's counter: 10 after 9).
 */
function inPlatformOrder(revisions: readonly Revision[]): Revision[] {
  return revisions
    .map((revision) => ({
      revision,
      time: parseJavaDate(
        revision.revisionDateTime,
        DATE_FORMAT,
        SERVER_INFO.timeZone,
      ).getTime(),
    }))
    .sort(
      (a, b) =>
        a.time - b.time ||
        compareText(a.revision.entityId, b.revision.entityId) ||
        Number(a.revision.revisionId) - Number(b.revision.revisionId),
    )
    .map(({ revision }) => revision);
}

/** One kind of the tracker's changes as the platform's history: its filters, its order, the window asked for. */
async function readHistory(
  kind: 'fields' | 'comments',
  { query, ...call }: HistoryCall,
): Promise<PlatformAnswer<'entityHistory'>> {
  // since and maxTime in the declared pattern; a revision at either time belongs in the answer, as the tracker's
  // since and until include theirs.
  const since = fromPlatformDate(query.since, 'since').toISOString();
  const until =
    query.maxTime === undefined
      ? undefined
      : fromPlatformDate(query.maxTime, 'maxTime').toISOString();
  const revisions = await readWindow(
    query,
    {
      all: async () => {
        const entries = await readChangelog(call, {
          project: query.projectId,
          issue: query.entityId,
          since,
          until,
        });
        const ordered = inPlatformOrder(
          entries
            .filter(
              (entry) =>
                (entry.action === 'commented') === (kind === 'comments'),
            )
            // Not the integration user's own changes, which the platform does not want back (the tracker
            // cannot leave out an author).
            .filter((entry) => entry.author !== query.notUpdatedByUser)
            .map(asRevision),
        );
        return query.orderByDirection === 'DESC' ? ordered.reverse() : ordered;
      },
    },
    { maxResults: SERVER_INFO.maxResults },
  );
  return { nextPageLinkSupported: false, revisions };
}

/**
 * The history operations of the tracker connector.
 *
 * @param platform - the catalog's builders
 * @returns the operations, to spread beside the others
 */
export function trackerHistoryOperations(
  platform: PlatformBuilders<TrackerSession>,
) {
  return {
    entityHistory: platform.entityHistory((call) =>
      readHistory('fields', call),
    ),
    commentHistory: platform.commentHistory((call) =>
      readHistory('comments', call),
    ),
  };
}
