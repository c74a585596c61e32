import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { defineConnector, field, secret } from '@connector-sdk/core';
import { createEndSystemClient, multipartBody } from '@connector-sdk/core/http';
import { afterAll, expect, it } from 'vitest';
import { LOOPBACK_EGRESS } from '../../test/records-connector.js';
import {
  createPlatformSimulator,
  startCassette,
  startFakeEndSystem,
  type CassetteFile,
} from '../index.js';

// An upload made with multipartBody carries a boundary made up for each call: a replay still finds its
// recording, whose body differs from the one sent only by that boundary. Its bytes (a binary file beside a
// text part holding a secret) are kept in base64, scrubbed as bytes: base64 would hide the secret from a
// search of the file's text.

const uploader = defineConnector({
  name: 'uploader',
  version: '1.0.0',
  config: { url: field.url(), token: field.secret() },
  session: { 'X-Url': field.url(), 'X-Token': field.secret() },
  initialize: ({ config }) => ({ 'X-Url': config.url, 'X-Token': secret(config.token) }),
  operations: ({ post }) => ({
    upload: post('/upload', async ({ session, signal, log }) => {
      const upload = multipartBody([
        { name: 'comment', value: 'from a test' },
        { name: 'token', value: session['X-Token'] },
        { name: 'file', fileName: 'a.bin', content: new Uint8Array([0, 1, 2, 255, 254]) },
      ]);
      const client = createEndSystemClient({ baseUrl: session['X-Url'], signal, log });
      const answer = await client.post('files', {
        body: upload.body,
        headers: { 'content-type': upload.contentType },
        throwHttpErrors: false,
      });
      return { status: answer.status };
    }),
  }),
});

const dir = mkdtempSync(join(tmpdir(), 'connector-sdk-multipart-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('replays an upload whose multipart boundary differs from the recorded one', async () => {
  const fake = await startFakeEndSystem();
  const path = join(dir, 'upload.json');
  const run = async (token: string) => {
    const platform = createPlatformSimulator({
      target: uploader,
      config: { url: fake.url, token: { value: token, sensitive: true } },
      handlerOptions: { egress: LOOPBACK_EGRESS },
    });
    await platform.initialize();
    return platform.call({ method: 'POST', path: '/upload' });
  };
  const recording = await startCassette({ path, mode: 'record' });
  const recorded = await run('upload-token-9f2e').finally(() => recording.stop());
  await fake.close();
  expect(recorded.body).toEqual({ status: 400 });
  const file = JSON.parse(readFileSync(path, 'utf8')) as CassetteFile;
  const body = file.tests.default?.[0]?.request.body;
  const bytes = Buffer.from(body && 'base64' in body ? body.base64 : '', 'base64').toString(
    'latin1',
  );
  expect(bytes).toContain('{{secret:1}}');
  expect(bytes).not.toContain('upload-token-9f2e');

  const replay = await startCassette({ path });
  try {
    const replayed = await run('another-token');
    expect(replay.takeMismatches().map((error) => error.message)).toEqual([]);
    expect(replayed.body).toEqual(recorded.body);
  } finally {
    await replay.stop();
  }
});
