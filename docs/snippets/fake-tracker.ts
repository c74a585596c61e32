// A small fake of the issue tracker's REST API that the connector of docs/platform-operations.md calls, for the
// tests that run it through the platform simulator. It keeps what a real tracker would: issues, a workflow that
// changes a status alone, comments, links, one rank order, users, and a feed of changes listed issue by issue.
import {
  createServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type {
  Issue,
  TrackerAttachment,
  TrackerChange as Change,
  TrackerComment,
} from './tracker-api.js';

/** The token the tests configure, and the tracker user it belongs to. */
export const TOKEN = 'tracker-token-1';
const TOKEN_USER = 'alice';

export const projects = Array.from({ length: 120 }, (_, i) => ({
  id: `P${i}`,
  name: `Project ${i}`,
}));

const USERS = [
  {
    id: 'u1',
    login: 'alice',
    email: 'alice@tracker.example',
    name: 'Alice Liddell',
  },
  {
    id: 'u2',
    login: 'alicia',
    email: 'alicia@tracker.example',
    name: 'Alicia Alice',
  },
  { id: 'u3', login: 'bob', email: 'bob@tracker.example', name: 'Bob' },
];

/** A running fake tracker. */
export interface FakeTracker {
  readonly url: string;
  /** Edits an issue as a tracker user does in the tracker itself, not through the connector. */
  edit(id: string, fields: Record<string, string>, by: string): void;
  /** Stamps every later change with this time (ISO), or with a clock that moves a minute per change. */
  freeze(at: string | undefined): void;
  close(): Promise<void>;
}

/** Starts a fake tracker on a free port of 127.0.0.1. */
export async function startFakeTracker(): Promise<FakeTracker> {
  const issues = new Map<string, Issue>();
  const comments = new Map<string, TrackerComment[]>();
  const links: {
    from: string;
    type: string;
    to: string;
    comment?: string | undefined;
  }[] = [];
  const rank: string[] = [];
  const files = new Map<
    string,
    { attachment: TrackerAttachment; bytes: Uint8Array }
  >();
  const changes: Change[] = [];
  let lastId = 0;
  let clock = Date.parse('2026-11-25T09:00:00.000Z');
  let frozen: string | undefined;
  const now = () => frozen ?? new Date((clock += 60_000)).toISOString();

  const record = (
    issue: string,
    by: string,
    change: Omit<Change, 'issue' | 'number' | 'by'>,
  ) =>
    changes.push({
      issue,
      number: changes.filter((c) => c.issue === issue).length + 1,
      by,
      ...change,
    });

  function edit(
    issue: Issue,
    fields: Record<string, string>,
    by: string,
  ): string | undefined {
    // The tracker's workflow: a status changes alone.
    if ('status' in fields && Object.keys(fields).length > 1)
      return 'A status change goes alone: edit the other fields first';
    const at = now();
    const changed = Object.fromEntries(
      Object.entries(fields).map(([name, value]) => [
        name,
        [issue[name as keyof Issue], value] as [unknown, unknown],
      ]),
    );
    Object.assign(issue, fields, { updated: at });
    record(issue.id, by, { at, kind: 'edited', fields: changed });
    return undefined;
  }

  async function handle(
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://tracker');
    const param = (name: string) => url.searchParams.get(name) ?? undefined;
    const send = (status: number, body?: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(body === undefined ? undefined : JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${TOKEN}`)
      return send(401, { message: 'no' });
    if (await attachments(req, res, url, send)) return;
    let text = '';
    for await (const chunk of req) text += String(chunk);
    const body = (text === '' ? {} : JSON.parse(text)) as Record<
      string,
      string
    >;
    const window = <T>(items: T[]) => {
      const offset = Number(param('offset') ?? 0);
      return items.slice(
        offset,
        offset + Number(param('limit') ?? items.length),
      );
    };
    const { pathname } = url;

    if (pathname === '/projects') {
      const page = Number(param('page'));
      return send(200, projects.slice(page * 50, page * 50 + 50));
    }
    if (pathname === '/users') {
      const q = (param('q') ?? '').toLowerCase();
      return send(
        200,
        USERS.filter((user) =>
          [user.login, user.email, user.name].some((text) =>
            text.toLowerCase().includes(q),
          ),
        ),
      );
    }
    if (pathname === '/issues' && req.method === 'POST') {
      const at = now();
      const issue = {
        id: `I-${++lastId}`,
        summary: body.summary ?? '',
        status: 'open',
        updated: at,
      };
      issues.set(issue.id, issue);
      comments.set(issue.id, []);
      rank.push(issue.id);
      record(issue.id, TOKEN_USER, {
        at,
        kind: 'created',
        fields: { summary: [null, issue.summary], status: [null, 'open'] },
      });
      return send(201, issue);
    }
    if (pathname === '/issues') {
      const ids = param('ids')?.split(',');
      const after = param('updatedAfter') ?? '';
      const since = param('updatedSince') ?? '';
      const found = [...issues.values()].filter(
        (issue) =>
          (ids === undefined || ids.includes(issue.id)) &&
          issue.updated > after &&
          issue.updated >= since,
      );
      // Oldest update first; issues of one update time stay in the order they were created.
      if (param('sort') === 'updated')
        found.sort((a, b) =>
          a.updated < b.updated ? -1 : a.updated > b.updated ? 1 : 0,
        );
      return send(200, window(found));
    }
    if (pathname === '/changes') {
      // Issue by issue, each issue's changes in order: not the platform's order.
      const kind =
        param('kind') === 'comments' ? ['commented'] : ['created', 'edited'];
      const [since, until, issue] = [
        param('since') ?? '',
        param('until'),
        param('issue'),
      ];
      const found = changes
        .filter(
          (change) =>
            kind.includes(change.kind) &&
            change.at >= since &&
            (until === undefined || change.at <= until) &&
            (issue === undefined || change.issue === issue),
        )
        .sort((a, b) =>
          a.issue < b.issue ? -1 : a.issue > b.issue ? 1 : a.number - b.number,
        );
      return send(200, found);
    }
    if (pathname === '/rank' && req.method === 'POST') {
      const from = rank.indexOf(body.issue ?? '');
      if (from === -1) return send(404, { message: 'No such issue' });
      rank.splice(from, 1);
      const sibling = rank.indexOf(body.before ?? body.after ?? '');
      if (sibling === -1) rank.push(body.issue as string);
      else
        rank.splice(
          body.before === undefined ? sibling + 1 : sibling,
          0,
          body.issue as string,
        );
      return send(204);
    }
    if (pathname === '/rank') return send(200, rank);

    const [, id, part] =
      /^\/issues\/([^/]+)(?:\/(comments|links))?$/.exec(pathname) ?? [];
    const issue = id === undefined ? undefined : issues.get(id);
    if (id === undefined || issue === undefined)
      return send(404, { message: 'No such issue' });
    if (part === 'comments' && req.method === 'POST') {
      const at = now();
      const list = comments.get(id) ?? [];
      const comment = {
        id: `C-${id}-${list.length + 1}`,
        text: body.text ?? '',
        author: TOKEN_USER,
        created: at,
      };
      list.push(comment);
      record(id, TOKEN_USER, { at, kind: 'commented', comment });
      return send(201, comment);
    }
    if (part === 'comments') {
      const after = param('after') ?? '';
      return send(
        200,
        window((comments.get(id) ?? []).filter((c) => c.created > after)),
      );
    }
    if (part === 'links' && req.method === 'POST') {
      if (body.type !== 'blocks')
        return send(422, { message: `No link type ${body.type}` });
      if (!issues.has(body.to ?? ''))
        return send(422, { message: `No issue ${body.to}` });
      const link = {
        from: id,
        type: body.type,
        to: body.to as string,
        comment: body.comment,
      };
      links.push(link);
      return send(201, link);
    }
    if (part === 'links' && req.method === 'DELETE') {
      const at = links.findIndex(
        (link) =>
          link.from === id &&
          link.type === param('type') &&
          link.to === param('to'),
      );
      if (at === -1) return send(404, { message: 'No such link' });
      links.splice(at, 1);
      return send(204);
    }
    if (part === 'links')
      return send(
        200,
        links.filter((link) => link.from === id),
      );
    if (req.method === 'PATCH') {
      const refused = edit(issue, body, TOKEN_USER);
      return refused === undefined
        ? send(200, issue)
        : send(422, { message: refused });
    }
    if (req.method === 'DELETE') {
      issues.delete(id);
      rank.splice(rank.indexOf(id), 1);
      return send(204);
    }
    return send(200, issue);
  }

  /** The attachment routes, which read their multipart or empty bodies themselves; `false` for other routes. */
  async function attachments(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    send: (status: number, body?: unknown) => void,
  ): Promise<boolean> {
    const upload = /^\/issues\/([^/]+)\/attachments$/.exec(url.pathname);
    const one = /^\/attachments\/([^/]+)(\/content)?$/.exec(url.pathname);
    if (upload === null && one === null) return false;
    const stored = one
      ? files.get(decodeURIComponent(one[1] as string))
      : undefined;
    if (one && stored === undefined) {
      send(404, { message: 'no such attachment' });
      return true;
    }
    if (req.method === 'GET' && one?.[2] !== undefined && stored) {
      res.writeHead(200, { 'content-type': stored.attachment.type });
      res.end(stored.bytes);
      return true;
    }
    if (req.method === 'DELETE' && stored) {
      files.delete(stored.attachment.id);
      send(204);
      return true;
    }
    // A new file (POST on an issue) or new content for one (PUT on an attachment), as multipart/form-data.
    const issue = upload
      ? decodeURIComponent(upload[1] as string)
      : stored?.attachment.issue;
    if (issue === undefined || !issues.has(issue)) {
      send(404, { message: 'no such issue' });
      return true;
    }
    const form = await new Response(Readable.toWeb(req) as ReadableStream, {
      headers: { 'content-type': req.headers['content-type'] ?? '' },
    }).formData();
    const file = form.get('file');
    if (!(file instanceof File)) {
      send(400, { message: 'no file' });
      return true;
    }
    const attachment: TrackerAttachment = {
      id: stored?.attachment.id ?? `F-${files.size + 1}`,
      issue,
      name: file.name,
      type: file.type || 'application/octet-stream',
      size: file.size,
      created: now(),
    };
    files.set(attachment.id, {
      attachment,
      bytes: new Uint8Array(await file.arrayBuffer()),
    });
    send(stored ? 200 : 201, attachment);
    return true;
  }
  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((listening) =>
    server.listen(0, '127.0.0.1', listening),
  );
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    edit: (id, fields, by) => {
      const issue = issues.get(id);
      if (issue === undefined) throw new Error(`No issue ${id}`);
      const refused = edit(issue, fields, by);
      if (refused !== undefined) throw new Error(refused);
    },
    freeze: (at) => {
      frozen = at;
    },
    close: () => new Promise<void>((closed) => server.close(() => closed())),
  };
}

/** The tests' configuration of the connector for a running fake tracker. */
export const trackerConfig = (fake: FakeTracker) => ({
  url: fake.url,
  token: { value: TOKEN, sensitive: true },
});
