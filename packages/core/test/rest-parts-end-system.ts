// A second small REST end system on 127.0.0.1 for the tests of a declarative connector's parts (src/rest/):
// items with comments and files, a journal of changes read page by page, users searched loosely (by prefix, any
// case) and lookup values. Files are uploaded as `multipart/form-data`, which it parses as an end system would
// (`Response.formData`), keeping how the upload was framed (Content-Length or chunked) and a SHA-256 of the file,
// and downloaded back byte for byte. It records every request, so a test asserts what the connector sent.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TOKEN } from './rest-end-system.js';

export interface PartComment {
  id: string;
  text: string;
  subject?: string;
  author: string;
  /** When it was written; one seed comment (on I-3) has none. */
  created?: string;
}
export interface PartFile {
  id: string;
  name: string;
  size: number;
  href: string;
}
/** One entry of the journal (`GET journal`), as the end system answers it. */
export interface JournalEntry {
  item: string;
  rev: number;
  by: string;
  at: string;
  kind: 'created' | 'changed' | 'commented';
  changes: { field: string; from: string | null; to: string | null }[];
  comment?: PartComment;
}
/** 10:mm:ss on 2026-05-01, as the journal writes times (ISO 8601). */
export const journalAt = (minute: number, second = 0) =>
  `2026-05-01T10:${String(minute).padStart(2, '0')}:${String(second).padStart(2, '0')}.000Z`;

/** A journal entry: by alice, a change of the title, unless `extra` says otherwise. */
export const journalEntry = (
  item: string,
  rev: number,
  at: string,
  extra: Partial<JournalEntry> = {},
): JournalEntry => ({
  item,
  rev,
  by: 'alice',
  at,
  kind: 'changed',
  changes: [{ field: 'title', from: `t${rev - 1}`, to: `t${rev}` }],
  ...extra,
});

export interface PartUser {
  id: string;
  login: string;
  mail: string;
  name: string;
}

/** What the end system saw of one multipart upload. */
export interface ReceivedUpload {
  /** How many bytes of body arrived. */
  readonly bytesReceived: number;
  readonly contentLength: string | undefined;
  readonly transferEncoding: string | undefined;
  readonly contentType: string | undefined;
  /** The text parts, by name. */
  readonly fields: Readonly<Record<string, string>>;
  /** The file parts, by name: their file name, content type, size and SHA-256 (hex). */
  readonly files: Readonly<
    Record<string, { name: string; type: string; size: number; sha256: string }>
  >;
}

/** One request the end system received. */
export interface PartsReceived {
  readonly method: string;
  /** The path under the API's base, still percent-encoded (`items/I-1/files/a%2Fb`). */
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The JSON body, parsed; `undefined` when there was none or it was an upload. */
  readonly body: unknown;
  readonly upload?: ReceivedUpload | undefined;
}

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const comment = (n: number, item: string): PartComment => ({
  id: `C-${item}-${n}`,
  text: `Comment ${n} on ${item}`,
  ...(n === 2 ? { subject: 'About it' } : {}),
  author: n % 2 === 0 ? 'bob' : 'alice',
  created: `2026-03-0${n}T09:00:00.000Z`,
});

const USERS: PartUser[] = [
  { id: 'u1', login: 'ann', mail: 'ann@example.com', name: 'Ann' },
  { id: 'u2', login: 'anna', mail: 'anna@example.com', name: 'Anna' },
  { id: 'u3', login: 'Ann', mail: 'ANN@example.com.au', name: 'Ann B' },
  { id: 'u4', login: 'bob', mail: 'bob@example.com', name: 'Bob' },
];

/** What the end system saw of an upload, and the bytes of its file parts by part name. */
async function readUpload(
  request: IncomingMessage,
): Promise<{ upload: ReceivedUpload; bytes: Map<string, Uint8Array> }> {
  const contentType = request.headers['content-type'];
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  const form = await new Response(raw, {
    headers: { 'content-type': contentType ?? '' },
  }).formData();
  const fields: Record<string, string> = {};
  const files: Record<string, { name: string; type: string; size: number; sha256: string }> = {};
  const kept = new Map<string, Uint8Array>();
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') fields[name] = value;
    else {
      const bytes = new Uint8Array(await value.arrayBuffer());
      files[name] = {
        name: value.name,
        type: value.type,
        size: bytes.length,
        sha256: sha256(bytes),
      };
      kept.set(name, bytes);
    }
  }
  const upload = {
    bytesReceived: raw.length,
    contentLength: request.headers['content-length'],
    transferEncoding: request.headers['transfer-encoding'],
    contentType,
    fields,
    files,
  };
  return { upload, bytes: kept };
}

/** Starts the end system. Its API is under `/api`; `url` is the base a connector is given. */
export async function startPartsEndSystem() {
  let received: PartsReceived[] = [];
  let comments = new Map<string, PartComment[]>();
  let files = new Map<string, PartFile[]>();
  let contents = new Map<string, Uint8Array>();
  let journal: JournalEntry[] = [];
  let nextId = 1;
  let clock = 0;
  let origin = '';
  const reset = () => {
    received = [];
    comments = new Map(
      ['I-1', 'I-2'].map((item) => [item, [1, 2, 3].map((n) => comment(n, item))]),
    );
    comments.set('I-3', [{ id: 'C-I-3-1', text: 'Undated', author: 'alice' }]);
    const file = { id: 'F-0', name: 'seed.txt', size: 4, href: `${origin}/api/files/F-0/content` };
    files = new Map([['I-1', [file]]]);
    contents = new Map([['F-0', new TextEncoder().encode('seed')]]);
    journal = [];
    nextId = 1;
    clock = Date.parse('2026-04-01T00:00:00.000Z');
  };

  async function route(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', 'http://end.system');
    const path = url.pathname.replace(/^\/api\//, '');
    const query = Object.fromEntries(url.searchParams);
    const answer = (status: number, json?: unknown) => {
      response.writeHead(status, json === undefined ? {} : { 'content-type': 'application/json' });
      response.end(json === undefined ? undefined : JSON.stringify(json));
    };
    const isUpload = request.headers['content-type']?.startsWith('multipart/form-data') === true;
    const uploaded = isUpload ? await readUpload(request) : undefined;
    const upload = uploaded?.upload;
    let body: unknown;
    if (!isUpload) {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const text = Buffer.concat(chunks).toString('utf8');
      body = text === '' ? undefined : (JSON.parse(text) as unknown);
    }
    const headers = request.headers;
    received.push({ method: request.method ?? '', path, query, headers, body, upload });
    if (request.headers.authorization !== `Bearer ${TOKEN}`) return answer(401, { message: 'No' });
    const [first, id, part, partId] = path.split('/').map(decodeURIComponent);
    const at = `${request.method} ${[first, id && ':id', part, partId && ':part'].filter(Boolean).join('/')}`;
    const item = id === undefined ? undefined : comments.get(id);
    const tick = () => new Date((clock += 60_000)).toISOString();
    switch (at) {
      case 'GET items/:id':
        if (item === undefined) return answer(404, { message: `No item ${id}` });
        return answer(200, { id, title: `Item ${id}`, files: files.get(id as string) ?? [] });
      case 'GET items/:id/comments':
        return item === undefined ? answer(404, {}) : answer(200, { comments: item });
      case 'POST items/:id/comments':
      case 'POST items/:id/notes': {
        const sent = body as { text?: unknown; subject?: unknown } | undefined;
        if (item === undefined || typeof sent?.text !== 'string') return answer(400, {});
        const made: PartComment = {
          id: `C-${nextId++}`,
          text: sent.text,
          ...(typeof sent.subject === 'string' ? { subject: sent.subject } : {}),
          author: 'integration',
          created: tick(),
        };
        item.push(made);
        // Notes answer the whole item, the new comment last.
        return answer(201, part === 'notes' ? { item: { id, comments: item } } : made);
      }
      case 'GET items/:id/files':
        return answer(200, { files: files.get(id as string) ?? [] });
      case 'POST items/:id/files': {
        const file = Object.entries(upload?.files ?? {})[0];
        if (file === undefined) return answer(400, { message: 'No file' });
        const [name, info] = file;
        const made = {
          id: `F-${nextId++}`,
          name: upload?.fields.name ?? info.name,
          size: info.size,
          href: `${origin}/api/files/F-${nextId - 1}/content`,
        };
        contents.set(made.id, uploaded?.bytes.get(name) ?? new Uint8Array());
        files.set(id as string, [...(files.get(id as string) ?? []), made]);
        return answer(201, { file: made });
      }
      case 'DELETE items/:id/files/:part':
        return answer(204);
      case 'GET files/:id/content': {
        const bytes = contents.get(id as string);
        if (bytes === undefined) return answer(404, { message: 'No file' });
        response.writeHead(200, { 'content-type': 'application/octet-stream' });
        return response.end(bytes);
      }
      case 'GET journal':
      case 'GET items/:id/journal': {
        const size = Number(query.size ?? 50);
        const page = Number(query.page ?? 1);
        const kept = journal.filter((entry) => part === undefined || entry.item === id);
        return answer(200, { entries: kept.slice((page - 1) * size, page * size) });
      }
      case 'GET users': {
        // A loose search, as end systems do: a prefix, any case.
        const loose = (value: string, given: string | undefined) =>
          given === undefined || value.toLowerCase().startsWith(given.toLowerCase());
        return answer(
          200,
          USERS.filter((user) => loose(user.mail, query.mail) && loose(user.login, query.login)),
        );
      }
      case 'GET priorities':
        return answer(200, {
          values: [
            { key: 1, label: { text: 'High' } },
            { key: 2, label: { text: 'Low' } },
          ],
        });
      default:
        return answer(404, { message: `No route ${at}` });
    }
  }

  const server = createServer((request, response) => {
    route(request, response).catch((error: unknown) => {
      response.writeHead(500);
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  reset();
  return {
    /** The API's base URL, as a connector's configuration gives it. */
    url: `${origin}/api`,
    origin,
    port,
    /** Puts the seed back (three comments on I-1 and I-2, one undated on I-3, a file on I-1, no journal). */
    reset,
    /** The requests received since the last reset, in order; `method` filters them. */
    received: (method?: string) =>
      received.filter((one) => method === undefined || one.method === method),
    comments: (item: string) => comments.get(item),
    /** Sets the journal `GET journal` pages through. */
    setJournal: (entries: JournalEntry[]) => void (journal = entries),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The end system {@link startPartsEndSystem} starts. */
export type PartsEndSystem = Awaited<ReturnType<typeof startPartsEndSystem>>;
