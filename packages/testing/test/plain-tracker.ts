// The end system behind the plain connector (plain-connector.ts): an issue tracker in memory, with its users,
// projects, logins and change log. It knows nothing of the platform: the connector maps its records to the
// platform's contract.
import { randomBytes } from 'node:crypto';

export type Fields = Record<string, unknown>;
export interface Session {
  readonly username: string;
  readonly sdkSessionId: string;
  readonly systemId: string;
}
export interface Comment {
  readonly id: string;
  readonly body: string;
  readonly title: string | undefined;
  readonly by: string;
  readonly at: number;
}
export interface Attachment {
  readonly id: string;
  readonly fileName: string;
  readonly bytes: Uint8Array;
  readonly by: string;
  readonly at: number;
}
export interface Issue {
  readonly id: string;
  readonly projectId: string;
  fields: Fields;
  updated: number;
  readonly comments: Comment[];
  readonly attachments: Map<string, Attachment>;
}
export interface Revision {
  readonly entityId: string;
  readonly projectId: string;
  /** Zero-padded, so that text order is number order. */
  readonly revisionId: string;
  readonly at: number;
  readonly by: string;
  readonly type: 'CREATE' | 'UPDATE';
  readonly changed: Record<string, { oldValue: unknown; newValue: unknown }>;
}

export const USERS = [
  { id: 'u1', username: 'alice', email: 'alice@example.com', displayName: 'Alice Liddell' },
  { id: 'u2', username: 'bob', email: 'bob@example.com', displayName: 'Bob Builder' },
];
export const PASSWORDS: Readonly<Record<string, string>> = {
  alice: 'wonderland-42',
  bob: 'can-we-fix-it',
};
export const PROJECTS = [
  { id: 'DEMO', name: 'Demo' },
  { id: 'SANDBOX', name: 'Sandbox' },
  { id: 'ARCHIVE', name: 'Archive' },
];
export const PRIORITIES = ['High', 'Medium', 'Low'];

/** The end system: issues with their comments, files and change history, and the logins it gave out. */
export class Tracker {
  readonly issues = new Map<string, Issue>();
  readonly revisions: Revision[] = [];
  readonly #logins = new Map<string, Session>();
  #next = 0;
  #last = 0;

  /** The tracker's clock: two changes never share a millisecond, as two rows of its change log never do. */
  now(): number {
    this.#last = Math.max(Date.now(), this.#last + 1);
    return this.#last;
  }

  constructor() {
    const day = (d: number) => Date.UTC(2025, 0, d, 9);
    const first = this.create(
      'DEMO',
      { summary: 'The first issue', priority: 'High' },
      'alice',
      day(5),
    );
    this.create('DEMO', { summary: 'The second issue', labels: ['ui'] }, 'bob', day(6));
    this.update(first, { priority: 'Low' }, 'bob', day(7));
  }

  login(username: string, password: string, ids: Omit<Session, 'username'>): string | undefined {
    if (PASSWORDS[username] !== password) return undefined;
    const token = randomBytes(24).toString('base64url');
    this.#logins.set(token, { username, ...ids });
    return token;
  }
  whoIs = (token: string) => this.#logins.get(token);
  logout = (token: string) => this.#logins.delete(token);

  create(projectId: string, fields: Fields, by: string, at = this.now()): Issue {
    const id = `${projectId}-${++this.#next}`;
    const issue: Issue = {
      id,
      projectId,
      fields: {},
      updated: at,
      comments: [],
      attachments: new Map(),
    };
    this.issues.set(id, issue);
    this.#change(issue, fields, { by, at, type: 'CREATE' });
    return issue;
  }

  update(issue: Issue, fields: Fields, by: string, at = this.now()): Issue {
    this.#change(issue, fields, { by, at, type: 'UPDATE' });
    return issue;
  }

  /** Sets the fields sent, and only those; a real change is one revision. */
  #change(issue: Issue, fields: Fields, how: Pick<Revision, 'by' | 'at' | 'type'>): void {
    const changed: Revision['changed'] = {};
    for (const [name, value] of Object.entries(fields)) {
      const oldValue = issue.fields[name] ?? null;
      if (JSON.stringify(oldValue) !== JSON.stringify(value))
        changed[name] = { oldValue, newValue: value };
    }
    if (how.type === 'UPDATE' && Object.keys(changed).length === 0) return;
    issue.fields = Object.fromEntries(
      Object.entries({ ...issue.fields, ...fields }).filter(([, value]) => value !== null),
    );
    issue.updated = how.at;
    const revisionId = String(this.revisions.length + 1).padStart(8, '0');
    this.revisions.push({
      entityId: issue.id,
      projectId: issue.projectId,
      revisionId,
      changed,
      ...how,
    });
  }

  newId = (prefix: string) => `${prefix}-${++this.#next}`;
}
