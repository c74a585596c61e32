// An entity's attachments, declared with `api.attachments`: the platform's multipart upload passed on as
// `multipart/form-data` with its length, content downloaded from under the API's base URL only, deletes, and
// the attachments a get lists on `expand=ATTACHMENTS`. Through a connector served by `createHandler`, against a
// real REST end system on 127.0.0.1 that parses the uploads it receives and records every request.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from '../index.js';
import {
  sha256,
  startPartsEndSystem,
  type PartsEndSystem,
} from '../../test/rest-parts-end-system.js';
import { partsPlatform } from '../../test/rest-parts-platform.js';
import { api, errorBody } from '../../test/rest-platform.js';

let system: PartsEndSystem;
beforeAll(async () => {
  system = await startPartsEndSystem();
});
afterAll(() => system.close());
beforeEach(() => system.reset());

const File = z.object({ id: z.string(), name: z.string(), size: z.number(), href: z.string() });
const Item = z.object({ id: z.string(), title: z.string(), files: z.array(File) });
const fields = {
  id: { from: 'id' },
  fileName: { from: 'name' },
  fileSize: { from: 'size' },
  contentUri: { from: 'href' },
} as const;
const roles = { id: 'id', contentUri: 'contentUri' } as const;
const created = (body: unknown) => (body as { file: unknown }).file;

/** Files kept in the item, uploaded with the file name as a text part of its own. */
const inItem = api.attachments(File, {
  fields,
  roles,
  list: { inItem: 'files' },
  upload: { path: 'items/{id}/files', file: 'data', parts: { fileName: 'name' }, answer: created },
  delete: 'items/{id}/files/{attachmentId}',
});
/** Files listed by a request of their own, uploaded without a name part; never deleted. */
const listed = api.attachments(File, {
  fields,
  roles,
  list: { path: 'items/{id}/files', items: 'files' },
  upload: { path: 'items/{id}/files', file: 'upload', answer: created },
});

const entity = (name: string, parts: object = {}) =>
  api.entity(Item, {
    name,
    id: 'id',
    fields: { id: { from: 'id' }, title: { from: 'title' } },
    get: 'items/{id}',
    ...parts,
  });
const entities = {
  item: entity('Item', { attachments: inItem }),
  listed: entity('Listed', { attachments: listed }),
  plain: entity('Plain'),
};
const platform = () => partsPlatform(system, { entities });

/** A few hundred KB that no boundary or encoding could leave intact by chance. */
const FILE = new Uint8Array(randomBytes(300 * 1024 + 7));
const upload = (type: string, comment?: string) =>
  platform().call({
    method: 'POST',
    path: `/entities/${type}/I-1/attachments`,
    upload: { name: 'report.bin', bytes: FILE, ...(comment === undefined ? {} : { comment }) },
  });
const content = (contentUri: string, type = 'item') =>
  platform().call({ path: `/entities/${type}/attachments/content`, query: { contentUri } });

describe('createAttachment', () => {
  it('passes the upload on as multipart/form-data with its Content-Length, the bytes intact', async () => {
    const answer = await upload('item', 'A comment');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      id: 'F-1',
      fileName: 'report.bin',
      fileSize: FILE.length,
      contentUri: `${system.url}/files/F-1/content`,
    });
    const [sent] = system.received();
    expect(sent).toMatchObject({ method: 'POST', path: 'items/I-1/files' });
    const received = sent?.upload;
    expect(received?.contentType).toMatch(/^multipart\/form-data; boundary=/);
    // Framed by its length, not chunked: end systems that need the length get it.
    expect(received?.transferEncoding).toBeUndefined();
    expect(received?.contentLength).toBe(String(received?.bytesReceived));
    expect(received?.files).toEqual({
      data: {
        name: 'report.bin',
        type: 'application/octet-stream',
        size: FILE.length,
        sha256: sha256(FILE),
      },
    });
    // The declared text part carries the platform's fileName; the platform's comment is not passed on.
    expect(received?.fields).toEqual({ name: 'report.bin' });
  });

  it('sends no name part when none is declared, the file under the declared part name', async () => {
    const answer = await upload('listed');
    expect(answer.body).toMatchObject({ id: 'F-1', fileName: 'report.bin', fileSize: FILE.length });
    expect(system.received()[0]?.upload).toMatchObject({
      fields: {},
      files: { upload: { name: 'report.bin', sha256: sha256(FILE) } },
    });
  });

  it('is a 400 for an entity type without attachments, and the end system is not called', async () => {
    const answer = await upload('plain');
    expect(answer).toMatchObject({ status: 400, body: errorBody('VALIDATION_FAILED') });
    expect(system.received()).toEqual([]);
  });
});

describe('attachmentContent', () => {
  it('streams the file back: the platform receives its bytes in base64', async () => {
    const uploaded = await upload('item');
    const answer = await content(uploaded.body.contentUri);
    expect(answer.status).toBe(200);
    const bytes = Buffer.from(answer.text, 'base64');
    expect(bytes.length).toBe(FILE.length);
    expect(sha256(bytes)).toBe(sha256(FILE));
    expect(system.received('GET')).toEqual([
      expect.objectContaining({ path: 'files/F-1/content' }),
    ]);
  });

  it('takes a content URI relative to the API’s base URL', async () => {
    const answer = await content('files/F-0/content', 'listed');
    expect(Buffer.from(answer.text, 'base64').toString('utf8')).toBe('seed');
  });

  it('answers the end system’s 404 for a file it does not have', async () => {
    expect((await content('files/F-404/content')).status).toBe(404);
  });

  it.each<[string, (origin: string, port: number) => string]>([
    ['another origin', (_, port) => `http://localhost:${port}/api/files/F-0/content`],
    ['another host', () => 'https://files.example/api/files/F-0/content'],
    ['.. out of the base path', (origin) => `${origin}/api/../secret`],
    ['a relative ..', () => '../secret'],
    ['an encoded ..', () => '%2e%2e/secret'],
    ['a sibling of the base path', (origin) => `${origin}/apix/files/F-0/content`],
    ['credentials in the URI', (_, port) => `http://user@127.0.0.1:${port}/api/files/F-0`],
    ['the base itself', (origin) => `${origin}/api/`],
    ['the base without its slash', (origin) => `${origin}/api`],
  ])('refuses %s with a 400, and the end system is not called', async (_, uri) => {
    const answer = await content(uri(system.origin, system.port));
    expect(answer).toMatchObject({ status: 400, body: errorBody('VALIDATION_FAILED') });
    expect(answer.body.errors.message).toContain("'contentUri'");
    expect(system.received()).toEqual([]);
  });

  it('refuses a content URI with an empty segment after the base with a 400', async () => {
    const answer = await content(`${system.url}//files/F-0/content`);
    expect(answer.status).toBe(400);
  });

  it('is a 400 for an entity type without attachments', async () => {
    const answer = await content('files/F-0/content', 'plain');
    expect(answer.status).toBe(400);
    expect(system.received()).toEqual([]);
  });
});

describe('deleteAttachment', () => {
  const remove = (attachmentId: string, type = 'item') =>
    platform().call({
      method: 'DELETE',
      path: `/entities/${type}/I-1/attachments`,
      query: { attachmentId },
    });

  it('puts the attachment id in the path as one segment and answers 204', async () => {
    const answer = await remove('F 1/../x?y');
    expect(answer).toEqual({ status: 204, text: '', body: '' });
    expect(system.received()).toEqual([
      expect.objectContaining({ method: 'DELETE', path: 'items/I-1/files/F%201%2F..%2Fx%3Fy' }),
    ]);
  });

  it.each(['..', '.'])('refuses the attachment id %s before calling the end system', async (id) => {
    expect((await remove(id)).status).toBe(400);
    expect(system.received()).toEqual([]);
  });

  it('is a 400 where the attachments declare no delete', async () => {
    const answer = await remove('F-0', 'listed');
    expect(answer).toMatchObject({ status: 400, body: errorBody('VALIDATION_FAILED') });
    expect(system.received()).toEqual([]);
  });
});

describe('getEntity with expand=ATTACHMENTS', () => {
  const get = (type: string, query: Record<string, string> = {}) =>
    platform().call({ path: '/entities/I-1', query: { entityTypeId: type, ...query } });
  const seeded = () => [
    { id: 'F-0', fileName: 'seed.txt', fileSize: 4, contentUri: `${system.url}/files/F-0/content` },
  ];

  it('lists the attachments the item holds, with no other request', async () => {
    const answer = await get('item', { expand: 'ATTACHMENTS' });
    expect(answer.body).toEqual({
      fields: { id: 'I-1', title: 'Item I-1' },
      attachments: seeded(),
    });
    expect(system.received().map((one) => one.path)).toEqual(['items/I-1']);
  });

  it('lists them from their own request', async () => {
    const answer = await get('listed', { expand: 'ATTACHMENTS,LINKS' });
    expect(answer.body).toEqual({
      fields: { id: 'I-1', title: 'Item I-1' },
      attachments: seeded(),
      links: [],
    });
    expect(system.received().map((one) => one.path)).toEqual(['items/I-1', 'items/I-1/files']);
  });

  it('leaves them out, and asks for none, when expand does not name them', async () => {
    const answer = await get('listed');
    expect(answer.body).not.toHaveProperty('attachments');
    expect(system.received().map((one) => one.path)).toEqual(['items/I-1']);
  });

  it('answers an empty list for an entity type that declares none', async () => {
    expect((await get('plain', { expand: 'ATTACHMENTS' })).body.attachments).toEqual([]);
  });
});

it('serves no attachment operation when no entity type declares attachments', async () => {
  const bare = partsPlatform(system, { entities: { plain: entities.plain } });
  const answers = await Promise.all([
    bare.call({ path: '/entities/plain/attachments/content', query: { contentUri: 'files/F-0' } }),
    bare.call({
      method: 'DELETE',
      path: '/entities/plain/I-1/attachments',
      query: { attachmentId: 'F-0' },
    }),
  ]);
  expect(answers.map((one) => one.status)).toEqual([404, 404]);
  expect(answers[0]?.body).toEqual(errorBody('ROUTE_NOT_FOUND'));
  expect(system.received()).toEqual([]);
});
