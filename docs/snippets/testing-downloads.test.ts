// The testing guide's download test, run as a real test: the connector of docs/platform-operations.md against
// the fake tracker, a file uploaded and read back through the platform simulator.
import { afterAll, beforeAll } from 'vitest';
import {
  startFakeTracker,
  trackerConfig,
  type FakeTracker,
} from './fake-tracker.js';
import { trackerConnector as connector } from './platform-operations.js';

let fake: FakeTracker;
beforeAll(async () => {
  fake = await startFakeTracker();
});
afterAll(() => fake.close());
const config = () => trackerConfig(fake);

// #region download
import { createPlatformSimulator } from '@connector-sdk/testing';
import { expect, it } from 'vitest';

it('downloads an attachment as bytes, not base64', async () => {
  const platform = createPlatformSimulator({
    target: connector,
    config: config(),
  });
  const scope = { projectId: 'P1' };
  const issue = await platform.callOperation('createEntity', {
    params: { entityTypeId: 'issue' },
    query: scope,
    body: { fields: { summary: 'Crash on save' } },
  });
  // any bytes, not only text
  const file = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff]);
  const form = new FormData();
  form.append('fileName', 'trace.bin');
  form.append('file', new Blob([file]), 'trace.bin');
  const uploaded = await platform.callOperation('createAttachment', {
    params: { entityTypeId: 'issue', entityId: String(issue.answer.fields.id) },
    query: scope,
    body: form,
  });

  const content = await platform.callOperation('attachmentContent', {
    params: { entityTypeId: 'issue' },
    query: { ...scope, contentUri: String(uploaded.answer.contentUri) },
  });
  expect(content.status).toBe(200);
  // a Uint8Array, decoded as the platform decodes it
  expect(content.answer).toEqual(file);
  // what the connector sent
  expect(content.text).toBe(Buffer.from(file).toString('base64'));
});
// #endregion download
