/** A comment on an issue of the sample tracker. */
export interface IssueComment {
  readonly id: string;
  readonly author: string;
  readonly text: string;
  /** When it was written, as an ISO 8601 instant. */
  readonly created: string;
}

/** One field a change set, before and after: `null` where it had no value (before the issue existed). */
export interface ChangelogItem {
  readonly field: string;
  readonly from: string | null;
  readonly to: string | null;
}

/** One entry of the tracker's changelog: an issue created, edited or commented on. */
export interface ChangelogEntry {
  /** Counts the tracker's changes from 1, across all issues. */
  readonly id: number;
  readonly issue: string;
  readonly project: string;
  /** The revision of the issue this change made: 1 when it was created, one more for each change. */
  readonly revision: number;
  /** The login of the user who made it. */
  readonly author: string;
  /** When, as an ISO 8601 instant. */
  readonly at: string;
  readonly action: 'created' | 'updated' | 'commented';
  /** The fields it changed; none for a comment. */
  readonly items: readonly ChangelogItem[];
  /** The comment it added. */
  readonly comment?: IssueComment;
}

/** What a read of the changelog takes: all optional, all must hold. */
export interface ChangelogFilter {
  readonly project?: string | undefined;
  readonly issue?: string | undefined;
  /** Changes at or after this instant (ms since the epoch). */
  readonly since?: number | undefined;
  /** Changes at or before this instant (ms since the epoch). */
  readonly until?: number | undefined;
}

/** The tracker's record of every change to its issues, which its users read as the issue's activity. */
export class Changelog {
  readonly #entries: ChangelogEntry[] = [];
  readonly #revisions = new Map<string, number>();

  /** Records a change and numbers it: the tracker's next entry, the issue's next revision. */
  record(change: Omit<ChangelogEntry, 'id' | 'revision'>): void {
    const revision = (this.#revisions.get(change.issue) ?? 0) + 1;
    this.#revisions.set(change.issue, revision);
    this.#entries.push({ ...change, id: this.#entries.length + 1, revision });
  }

  /** The entries that match, newest first, as the tracker shows an activity feed. */
  list(filter: ChangelogFilter): ChangelogEntry[] {
    return this.#entries
      .filter((entry) => {
        const at = Date.parse(entry.at);
        return (
          (filter.project === undefined || entry.project === filter.project) &&
          (filter.issue === undefined || entry.issue === filter.issue) &&
          (filter.since === undefined || at >= filter.since) &&
          (filter.until === undefined || at <= filter.until)
        );
      })
      .reverse();
  }
}

/** The fields of an issue its changelog follows. */
const FOLLOWED = ['summary', 'description', 'status'] as const;

/**
 * What a change did to the followed fields: each one whose value differs, before → after.
 *
 * @param before - the issue before, or undefined when the change created it
 * @param after - the issue after
 * @returns the changed fields, in a fixed order
 */
export function changedFields(
  before: Readonly<Record<(typeof FOLLOWED)[number], string>> | undefined,
  after: Readonly<Record<(typeof FOLLOWED)[number], string>>,
): ChangelogItem[] {
  return FOLLOWED.filter((field) => before?.[field] !== after[field]).map(
    (field) => ({
      field,
      from: before?.[field] ?? null,
      to: after[field],
    }),
  );
}
