import { randomBytes } from 'node:crypto';
import {
  Changelog,
  changedFields,
  type ChangelogEntry,
  type ChangelogFilter,
  type IssueComment,
} from './tracker-changelog.js';

/** An issue in the sample tracker. */
export interface Issue {
  readonly id: string;
  readonly project: string;
  readonly summary: string;
  readonly description: string;
  readonly status: 'open' | 'closed';
  /** When it last changed, as an ISO 8601 instant. */
  readonly updated: string;
  readonly comments: readonly IssueComment[];
}

/** What a search of the tracker takes: all optional, all must hold. */
export interface IssueSearch {
  readonly project?: string | undefined;
  /** Changed strictly after this ISO 8601 instant. */
  readonly updatedAfter?: string | undefined;
  /** Changed strictly before this instant. */
  readonly updatedBefore?: string | undefined;
  /** Changed at or before this instant. */
  readonly updatedUntil?: string | undefined;
  readonly ids?: readonly string[] | undefined;
}

/** The tracker's own error: an id such as `ISSUE_NOT_FOUND` and a text, sent as `{ fault: { id, text } }`. */
export class Fault extends Error {
  /** Headers the answer carries besides its body, such as a 429's `Retry-After`. */
  readonly headers: Record<string, string> = {};

  constructor(
    readonly status: number,
    readonly id: string,
    text: string,
  ) {
    super(text);
  }
}

/** Options of the sample tracker. */
export interface TrackerOptions {
  /** Accounts, login → password. @default { alice: 'wonderland' } */
  readonly users?: Readonly<Record<string, string>>;
  /** Projects, key → name. @default { DEMO: 'Demo project' } */
  readonly projects?: Readonly<Record<string, string>>;
  /** How long a token lives. @default 15 minutes */
  readonly tokenTtlMs?: number;
  /** Calls one token may make per window before a 429. @default 100 per 60 s */
  readonly rateLimit?: { readonly limit: number; readonly windowMs: number };
  /** The clock for token lifetimes and rate-limit windows; tests pass a manual one. @default Date.now */
  readonly now?: () => number;
}

interface Token {
  readonly login: string;
  expiresAt: number;
  windowStart: number;
  calls: number;
}

/**
 * The tracker's data and rules, without HTTP: accounts, tokens, a rate limit per token, projects, issues and
 * the changelog of every change to them.
 */
export class TrackerStore {
  readonly issues = new Map<string, Issue>();
  readonly #changelog = new Changelog();
  readonly #tokens = new Map<string, Token>();
  readonly #options: TrackerOptions;
  #nextId = 1;
  #lastStamp = 0;

  constructor(options: TrackerOptions) {
    this.#options = options;
  }

  #now(): number {
    return (this.#options.now ?? Date.now)();
  }

  get projects(): Readonly<Record<string, string>> {
    return this.#options.projects ?? { DEMO: 'Demo project' };
  }

  login(login: unknown, password: unknown): { token: string; ttl: number } {
    const users = this.#options.users ?? { alice: 'wonderland' };
    if (
      typeof login !== 'string' ||
      typeof password !== 'string' ||
      users[login] !== password
    )
      throw new Fault(401, 'BAD_CREDENTIALS', 'Wrong login or password');
    const token = randomBytes(18).toString('base64url');
    const ttlMs = this.#options.tokenTtlMs ?? 15 * 60_000;
    this.#tokens.set(token, {
      login,
      expiresAt: this.#now() + ttlMs,
      windowStart: 0,
      calls: 0,
    });
    return { token, ttl: Math.floor(ttlMs / 1000) };
  }

  logout(token: string | undefined): void {
    if (token !== undefined) this.#tokens.delete(token);
  }

  /** Checks a token and counts the call against its rate limit; returns who it belongs to. */
  authenticate(token: string | undefined): string {
    const state = token === undefined ? undefined : this.#tokens.get(token);
    if (state === undefined)
      throw new Fault(401, 'NOT_LOGGED_IN', 'Log in first');
    const now = this.#now();
    if (state.expiresAt <= now)
      throw new Fault(401, 'TOKEN_EXPIRED', 'Your session has expired');
    const { limit, windowMs } = this.#options.rateLimit ?? {
      limit: 100,
      windowMs: 60_000,
    };
    if (now - state.windowStart >= windowMs) {
      state.windowStart = now;
      state.calls = 0;
    }
    if (++state.calls > limit) {
      const seconds = Math.max(
        1,
        Math.ceil((state.windowStart + windowMs - now) / 1000),
      );
      const fault = new Fault(429, 'TOO_MANY_REQUESTS', 'Slow down');
      fault.headers['retry-after'] = String(seconds);
      throw fault;
    }
    return state.login;
  }

  /** Ends every session at once, as when the tracker restarts. */
  expireTokens(): void {
    for (const state of this.#tokens.values()) state.expiresAt = 0;
  }

  get liveTokens(): number {
    return [...this.#tokens.values()].filter(
      (state) => state.expiresAt > this.#now(),
    ).length;
  }

  /** Creates an issue in a project, as `author` (a login). */
  createIssue(
    project: string,
    input: Record<string, unknown>,
    author: string,
  ): Issue {
    this.project(project);
    if (typeof input.summary !== 'string' || input.summary.trim() === '')
      throw new Fault(422, 'INVALID_ISSUE', 'An issue needs a summary');
    const issue: Issue = {
      id: `${project}-${this.#nextId++}`,
      project,
      summary: input.summary,
      description:
        typeof input.description === 'string' ? input.description : '',
      status: 'open',
      updated: this.#stamp(),
      comments: [],
    };
    this.issues.set(issue.id, issue);
    this.#record(issue, {
      author,
      action: 'created',
      items: changedFields(undefined, issue),
    });
    return issue;
  }

  /** The instant of a change: strictly after the previous one, so "changed after" never misses one. */
  #stamp(): string {
    this.#lastStamp = Math.max(this.#now(), this.#lastStamp + 1);
    return new Date(this.#lastStamp).toISOString();
  }

  /** Changes an issue's summary, description or status, as `author` (a login). */
  updateIssue(
    id: string,
    input: Record<string, unknown>,
    author: string,
  ): Issue {
    const issue = this.issue(id);
    const { summary, description, status } = input;
    if (
      summary !== undefined &&
      (typeof summary !== 'string' || summary.trim() === '')
    )
      throw new Fault(422, 'INVALID_ISSUE', 'A summary cannot be empty');
    if (status !== undefined && status !== 'open' && status !== 'closed')
      throw new Fault(422, 'INVALID_ISSUE', 'A status is open or closed');
    const changed: Issue = {
      ...issue,
      ...(summary === undefined ? {} : { summary }),
      ...(typeof description === 'string' ? { description } : {}),
      ...(status === undefined ? {} : { status }),
    };
    // Setting what is already there changes nothing: not the time of the last change, not the changelog.
    const items = changedFields(issue, changed);
    if (items.length === 0) return issue;
    const updated = { ...changed, updated: this.#stamp() };
    this.issues.set(id, updated);
    this.#record(updated, { author, action: 'updated', items });
    return updated;
  }

  /** Records a change to an issue, at the time the issue was last changed. */
  #record(
    issue: Issue,
    change: Pick<ChangelogEntry, 'author' | 'action' | 'items' | 'comment'>,
  ) {
    this.#changelog.record({
      issue: issue.id,
      project: issue.project,
      at: issue.updated,
      ...change,
    });
  }

  /** The changelog entries that match, newest first. */
  changelog(filter: ChangelogFilter): ChangelogEntry[] {
    if (filter.project !== undefined) this.project(filter.project);
    return this.#changelog.list(filter);
  }

  /** Deletes an issue for good. */
  deleteIssue(id: string): void {
    this.issue(id);
    this.issues.delete(id);
  }

  /** The issues that match, oldest change first. */
  search(search: IssueSearch): Issue[] {
    return [...this.issues.values()]
      .filter(
        (issue) =>
          (search.project === undefined || issue.project === search.project) &&
          (search.updatedAfter === undefined ||
            issue.updated > search.updatedAfter) &&
          (search.updatedBefore === undefined ||
            issue.updated < search.updatedBefore) &&
          (search.updatedUntil === undefined ||
            issue.updated <= search.updatedUntil) &&
          (search.ids === undefined || search.ids.includes(issue.id)),
      )
      .sort(
        (a, b) =>
          a.updated.localeCompare(b.updated) || a.id.localeCompare(b.id),
      );
  }

  issue(id: string): Issue {
    const issue = this.issues.get(id);
    if (issue === undefined)
      throw new Fault(404, 'ISSUE_NOT_FOUND', `There is no issue ${id}`);
    return issue;
  }

  project(key: string): string {
    const name = this.projects[key];
    if (name === undefined)
      throw new Fault(404, 'PROJECT_NOT_FOUND', `There is no project ${key}`);
    return name;
  }

  comment(id: string, author: string, text: unknown): Issue {
    if (typeof text !== 'string' || text.trim() === '')
      throw new Fault(422, 'INVALID_COMMENT', 'A comment needs a text');
    const issue = this.issue(id);
    const comment = {
      id: String(issue.comments.length + 1),
      author,
      text,
      created: this.#stamp(),
    };
    const updated = {
      ...issue,
      comments: [...issue.comments, comment],
      updated: comment.created,
    };
    this.issues.set(id, updated);
    this.#record(updated, { author, action: 'commented', items: [], comment });
    return updated;
  }
}
