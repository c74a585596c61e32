// The testing guide's recorded end system, run as a real test: the guide's records connector replayed from
// docs/snippets/cassettes/records.json, recorded against the kit's fake end system with
//   CONNECTOR_SDK_RECORD=1 pnpm vitest run docs/snippets/testing-cassettes.test.ts
// (the fake is started only then: a replay needs no end system at all). A replay compares origins, and the
// fake listens on a free port: after re-recording, set the cassette's origin back to http://127.0.0.1:4010.
import { startFakeEndSystem, type FakeEndSystem } from '@connector-sdk/testing';
import { afterAll, beforeAll } from 'vitest';
import { recordsConnector as connector } from './project/src/records-connector.js';

const recording = !['', '0', 'false'].includes(
  process.env.CONNECTOR_SDK_RECORD?.trim() ?? '',
);
let fake: FakeEndSystem | undefined;
beforeAll(async () => {
  if (recording)
    fake = await startFakeEndSystem({ users: { alice: 'wonderland' } });
});
afterAll(() => fake?.close());
const endSystemUrl = () => fake?.url ?? 'http://127.0.0.1:4010';

// #region use-cassette
import { createPlatformSimulator } from '@connector-sdk/testing';
import { useCassette } from '@connector-sdk/testing/vitest';
import { expect, it } from 'vitest';

// Replays test/cassettes/records.json; CONNECTOR_SDK_RECORD=1 records it
// against the end system instead.
useCassette(new URL('./cassettes/records.json', import.meta.url));

it('creates a record and lists it', async () => {
  const platform = createPlatformSimulator({
    target: connector,
    config: {
      url: endSystemUrl(),
      username: 'alice',
      password: {
        value: process.env.RECORDS_PASSWORD ?? 'wonderland',
        sensitive: true,
      },
    },
  });
  const created = await platform.call({
    method: 'POST',
    path: '/records',
    body: { title: 'A' },
  });
  expect(created.status).toBe(200);
  const listed = await platform.call({ path: '/records' });
  expect(listed.body).toMatchObject({ records: [{ title: 'A' }] });
});
// #endregion use-cassette
