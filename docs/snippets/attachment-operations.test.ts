// Runs the attachment operations of the connector of docs/platform-operations.md against the fake tracker,
// through the platform simulator: an upload with its comment sent last, the content read back as base64, new
// content, a delete, and the 400s of an upload without its name.
import { createPlatformSimulator } from '@connector-sdk/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  startFakeTracker,
  trackerConfig,
  type FakeTracker,
} from './fake-tracker.js';
import { trackerConnector } from './platform-operations.js';

let fake: FakeTracker;
let platform: ReturnType<typeof createPlatformSimulator>;
beforeAll(async () => {
  fake = await startFakeTracker();
  platform = createPlatformSimulator({
    target: trackerConnector,
    config: trackerConfig(fake),
  });
});
afterAll(() => fake.close());

const scope = { projectId: 'P1' };
const bytes = Uint8Array.from({ length: 300_000 }, (_, i) => (i * 31) % 256);

it('uploads a file with its comment, reads it back, replaces and deletes it', async () => {
  const created = await platform.callOperation('createEntity', {
    params: { entityTypeId: 'issue' },
    query: scope,
    body: { fields: { summary: 'Crash on save' } },
  });
  const entityId = String(created.answer.fields.id);
  const params = { entityTypeId: 'issue', entityId };

  const form = new FormData();
  form.append('fileName', 'trace.bin');
  form.append(
    'file',
    new Blob([bytes], { type: 'application/x-trace' }),
    'trace.bin',
  );
  form.append('fileComment', 'from the nightly run');
  const uploaded = await platform.callOperation('createAttachment', {
    params,
    query: scope,
    body: form,
  });
  expect(uploaded).toMatchObject({
    status: 200,
    answer: {
      fileName: 'trace.bin',
      contentType: 'application/x-trace',
      contentLength: bytes.length,
    },
  });
  const contentUri = String(uploaded.answer.contentUri);
  const comments = await platform.callOperation('getComments', {
    params,
    query: { ...scope, startIndex: '0', maxResults: '10' },
  });
  expect(JSON.stringify(comments.answer)).toContain(
    'trace.bin: from the nightly run',
  );

  const content = await platform.callOperation('attachmentContent', {
    params: { entityTypeId: 'issue' },
    query: { ...scope, contentUri },
  });
  expect(content.status).toBe(200);
  expect(
    Buffer.from(content.answer as Uint8Array).equals(Buffer.from(bytes)),
  ).toBe(true);

  const replacement = new FormData();
  replacement.append('fileName', 'trace-2.bin');
  replacement.append('file', new Blob(['short now']), 'trace-2.bin');
  const updated = await platform.callOperation('updateAttachment', {
    params,
    query: { ...scope, attachmentId: contentUri },
    body: replacement,
  });
  expect(updated.answer).toMatchObject({
    attachmentId: contentUri,
    contentLength: 9,
  });

  const deleted = await platform.callOperation('deleteAttachment', {
    params,
    query: { ...scope, attachmentId: contentUri },
  });
  expect(deleted.status).toBe(204);
  const gone = await platform.callOperation('attachmentContent', {
    params: { entityTypeId: 'issue' },
    query: { ...scope, contentUri },
  });
  expect(gone.status).toBe(404);
});

it('answers 400 naming the field to an upload without a file name, before calling the tracker', async () => {
  const form = new FormData();
  form.append('file', new Blob(['x']), 'x.txt');
  expect(
    await platform.callOperation('createAttachment', {
      params: { entityTypeId: 'issue', entityId: 'I-1' },
      query: scope,
      body: form,
    }),
  ).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
});

it('answers an attachment under the names the issue type declares, its date in the declared pattern', async () => {
  const type = await platform.callOperation('entityType', {
    params: { entityTypeId: 'issue' },
    query: scope,
  });
  const declared = (
    type.answer as {
      attachments?: {
        createUpdateDateFormat?: string;
        fieldNameInfo?: Record<string, string>;
      };
    }
  ).attachments;
  const names = declared?.fieldNameInfo ?? {};
  expect(Object.keys(names)).toEqual(
    expect.arrayContaining([
      'idFieldName',
      'contentUriFieldName',
      'fileNameFieldName',
    ]),
  );

  const created = await platform.callOperation('createEntity', {
    params: { entityTypeId: 'issue' },
    query: scope,
    body: { fields: { summary: 'Named parts' } },
  });
  const form = new FormData();
  form.append('fileName', 'named.txt');
  form.append('file', new Blob(['named']), 'named.txt');
  const uploaded = await platform.callOperation('createAttachment', {
    params: {
      entityTypeId: 'issue',
      entityId: String(created.answer.fields.id),
    },
    query: scope,
    body: form,
  });
  // Every part the platform reads is under a declared name, and the parts it needs are there.
  const answered = uploaded.answer as Record<string, unknown>;
  expect(Object.values(names)).toEqual(
    expect.arrayContaining(Object.keys(answered)),
  );
  expect(answered[names.fileNameFieldName ?? '']).toBe('named.txt');
  const dated = answered[names.createdOrUpdatedDateFieldName ?? ''];
  expect(dated).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d{4}$/);
  expect(declared?.createUpdateDateFormat).toBe("yyyy-MM-dd'T'HH:mm:ss.SSSZ");

  const content = await platform.callOperation('attachmentContent', {
    params: { entityTypeId: 'issue' },
    query: {
      ...scope,
      contentUri: String(answered[names.contentUriFieldName ?? '']),
    },
  });
  expect(Buffer.from(content.answer as Uint8Array).toString()).toBe('named');
});
