import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEndSystemClient } from '@connector-sdk/core/http';
import { serve, type ConnectorServer } from '@connector-sdk/node';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { LOOPBACK_EGRESS, recordsConfig, recordsConnector } from '../../test/records-connector.js';
import {
  CassetteLeakError,
  createPlatformSimulator,
  scanCassette,
  startCassette,
  startFakeEndSystem,
  type CassetteFile,
  type FakeEndSystem,
} from '../index.js';

// Record against the kit's fake end system (real HTTP on 127.0.0.1), then replay with it closed: every answer
// must come from the cassette, the login's token must flow on, and nothing secret may reach the file.

const PASSWORD = 'wonderland-7f3c9a';
let fake: FakeEndSystem;
let dir: string;
let cassettePath: string;
let fakeUrl: string;

/** The calls of one lifecycle: login, a list, a create, a session that expires, and the logout. */
async function lifecycle(
  target: Parameters<typeof createPlatformSimulator>[0]['target'],
  url: string,
) {
  const platform = createPlatformSimulator({
    target,
    config: recordsConfig(url, PASSWORD),
    handlerOptions: { egress: LOOPBACK_EGRESS },
  });
  const answers: unknown[] = [];
  answers.push((await platform.initialize()).status);
  answers.push(await platform.call({ method: 'POST', path: '/records', body: { title: 'first' } }));
  // The end system forgets the token (in the recording): a 401, a new login, the call again.
  if (fake.url === url) fake.expireTokens();
  answers.push(await platform.call({ path: '/records' }));
  const session = platform.session?.find((entry) => entry.key === 'Authorization')?.value;
  answers.push((await platform.cleanup()).status);
  lastSession = session;
  return answers.map((answer) =>
    typeof answer === 'number'
      ? answer
      : { status: (answer as { status: number }).status, body: (answer as { body: unknown }).body },
  );
}

let recorded: unknown[];
let lastSession: string | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'connector-sdk-cassette-'));
  cassettePath = join(dir, 'records.json');
  fake = await startFakeEndSystem({ users: { alice: PASSWORD } });
  fakeUrl = fake.url;
  const cassette = await startCassette({ path: cassettePath, mode: 'record' });
  cassette.section('lifecycle');
  recorded = await lifecycle(recordsConnector, fakeUrl);
  await cassette.stop();
  await fake.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const file = () => JSON.parse(readFileSync(cassettePath, 'utf8')) as CassetteFile;

describe('a recorded end system', () => {
  it('writes every exchange in order, secrets as placeholders', () => {
    const exchanges = file().tests.lifecycle ?? [];
    expect(
      exchanges.map(
        (e) => `${e.request.method} ${new URL(e.request.url).pathname} ${e.response.status}`,
      ),
    ).toEqual([
      'POST /auth/login 200',
      'POST /records 201',
      'GET /records 401',
      'POST /auth/login 200',
      'GET /records 200',
      'POST /auth/logout 204',
    ]);
    const [login, create] = exchanges;
    expect(login?.request.body).toEqual({ json: { username: 'alice', password: '{{secret:1}}' } });
    expect(login?.response.body).toMatchObject({ json: { token: '{{secret:2}}' } });
    expect(create?.request.headers.authorization).toBe('Bearer {{secret:2}}');
    const text = readFileSync(cassettePath, 'utf8');
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toMatch(/Bearer [a-f0-9]{16,}/);
  });

  it('replays offline with the login token flowing on, the session expiry included', async () => {
    const cassette = await startCassette({ path: cassettePath });
    try {
      cassette.section('lifecycle');
      // The fake is closed: an answer can only come from the cassette.
      const replayed = await lifecycle(recordsConnector, fakeUrl);
      expect(replayed).toEqual(recorded);
      expect(cassette.takeMismatches()).toEqual([]);
      // The second login's token, handed out by the replay, is the session the platform got.
      expect(lastSession).toBe('Bearer replayed-secret-3');
    } finally {
      await cassette.stop();
    }
  });

  it('fails a call whose token is not the one the replayed login handed out', async () => {
    const edited = join(dir, 'edited.json');
    const cassette0 = file();
    const exchanges = cassette0.tests.lifecycle ?? [];
    // As if the recording had sent the password where the token goes: the replay hands out a token instead.
    const create = exchanges[1] as (typeof exchanges)[number];
    const wrong = {
      ...create,
      request: {
        ...create.request,
        headers: { ...create.request.headers, authorization: 'Bearer {{secret:1}}' },
      },
    };
    writeFileSync(
      edited,
      JSON.stringify({ version: 1, tests: { lifecycle: [exchanges[0], wrong] } }),
    );
    const cassette = await startCassette({ path: edited });
    onTestFinished(() => cassette.stop().catch(() => undefined));
    cassette.section('lifecycle');
    const platform = createPlatformSimulator({
      target: recordsConnector,
      config: recordsConfig(fakeUrl, PASSWORD),
      handlerOptions: { egress: LOOPBACK_EGRESS },
    });
    await platform.initialize();
    expect(
      (await platform.call({ method: 'POST', path: '/records', body: { title: 'first' } })).status,
    ).toBe(500);
    const [mismatch] = cassette.takeMismatches();
    expect(mismatch?.message).toContain('credentials: a header differs (authorization)');
    expect(mismatch?.message).not.toContain(PASSWORD);
  });

  it('does not answer a call to another origin than the one recorded', async () => {
    const cassette = await startCassette({ path: cassettePath });
    onTestFinished(() => cassette.stop().catch(() => undefined));
    cassette.section('lifecycle');
    const elsewhere = fakeUrl.replace('127.0.0.1', 'localhost');
    const platform = createPlatformSimulator({
      target: recordsConnector,
      config: recordsConfig(elsewhere, PASSWORD),
      handlerOptions: { egress: LOOPBACK_EGRESS },
    });
    expect((await platform.initialize()).status).not.toBe(200);
    const [mismatch] = cassette.takeMismatches();
    expect(mismatch?.message).toContain(
      `origin: recorded ${JSON.stringify(fakeUrl)}\n    sent     ${JSON.stringify(elsewhere)}`,
    );
  });

  it("binds a placeholder to a non-empty value only, one of the request's secrets when they are known", async () => {
    const edited = join(dir, 'non-secret.json');
    const exchanges = file().tests.lifecycle ?? [];
    const create = exchanges[1] as (typeof exchanges)[number];
    // As if the recording had scrubbed the record's title: 'first' is no secret of the request.
    const titled = {
      ...create,
      request: { ...create.request, body: { json: { title: '{{secret:9}}' } } },
    };
    writeFileSync(
      edited,
      JSON.stringify({ version: 1, tests: { lifecycle: [exchanges[0], titled] } }),
    );
    const cassette = await startCassette({ path: edited });
    onTestFinished(() => cassette.stop().catch(() => undefined));
    cassette.section('lifecycle');
    const platform = createPlatformSimulator({
      target: recordsConnector,
      config: recordsConfig(fakeUrl, PASSWORD),
      handlerOptions: { egress: LOOPBACK_EGRESS },
    });
    expect((await platform.initialize()).status).toBe(200);
    const answer = await platform.call({
      method: 'POST',
      path: '/records',
      body: { title: 'first' },
    });
    expect(answer.status).toBe(500);
    expect(cassette.takeMismatches()[0]?.message).toContain('body: recorded');
    // A client without a platform request knows no secrets: an empty password still does not match.
    const client = createEndSystemClient({ baseUrl: fakeUrl, egress: LOOPBACK_EGRESS });
    await expect(
      client.post('auth/login', { json: { username: 'alice', password: '' } }).json(),
    ).rejects.toThrow();
    expect(cassette.takeMismatches()[0]?.message).toContain('body: recorded');
  });

  it('fails a call no recording matches, naming the closest call and the difference', async () => {
    const cassette = await startCassette({ path: cassettePath });
    onTestFinished(() => cassette.stop().catch(() => undefined));
    cassette.section('lifecycle');
    const platform = createPlatformSimulator({
      target: recordsConnector,
      config: recordsConfig(fakeUrl, 'another-password'),
      handlerOptions: { egress: LOOPBACK_EGRESS },
    });
    await platform.initialize();
    const answer = await platform.call({
      method: 'POST',
      path: '/records',
      body: { title: 'other' },
    });
    expect(answer.status).toBe(500);
    const [mismatch] = cassette.takeMismatches();
    expect(mismatch?.message).toContain('No recorded exchange of test "lifecycle"');
    expect(mismatch?.message).toContain('matches POST /records');
    expect(mismatch?.message).toContain('Closest recorded: exchange 2, POST /records');
    expect(mismatch?.message).toMatch(
      /body: recorded "\{\\"title\\":\\"first\\"}"\n\s+sent\s+"\{\\"title\\":\\"other\\"}"/,
    );
    expect(mismatch?.message).not.toContain('another-password');
  });

  it('replays on the node binding, over real HTTP', async () => {
    const server: ConnectorServer = await serve(recordsConnector, {
      port: 0,
      host: '127.0.0.1',
      egress: LOOPBACK_EGRESS,
    });
    const cassette = await startCassette({ path: cassettePath });
    try {
      cassette.section('lifecycle');
      expect(await lifecycle(server.url, fakeUrl)).toEqual(recorded);
    } finally {
      await cassette.stop();
      await server.close();
    }
  });

  it('is not written when a secret survives scrubbing, and says where, not what', async () => {
    const fresh = await startFakeEndSystem({ users: { alice: PASSWORD } });
    const leaky = join(dir, 'leaky.json');
    // A section kept from the file as it was (a test not recorded this time) with a password in clear: the
    // recording scrubs a credential-named field whatever it holds, so only a kept section can still hold one.
    const before = JSON.stringify({
      version: 1,
      tests: {
        older: [
          {
            request: {
              method: 'POST',
              url: `${fresh.url}/records`,
              headers: {},
              body: { json: { title: 'x', password: 'plain-hunter22' } },
            },
            response: { status: 201, headers: {} },
          },
        ],
      },
    });
    writeFileSync(leaky, before);
    const cassette = await startCassette({ path: leaky, mode: 'record' });
    try {
      cassette.section('newer');
      const platform = createPlatformSimulator({
        target: recordsConnector,
        config: recordsConfig(fresh.url, PASSWORD),
        handlerOptions: { egress: LOOPBACK_EGRESS },
      });
      await platform.initialize();
    } finally {
      await fresh.close();
    }
    const stopped = cassette.stop();
    await expect(stopped).rejects.toBeInstanceOf(CassetteLeakError);
    await expect(stopped).rejects.toThrow(
      /test "older", exchange 1 \(POST \/records\): a secret in the request body field password/,
    );
    await stopped.catch((error: Error) => expect(error.message).not.toContain('plain-hunter22'));
    expect(readFileSync(leaky, 'utf8')).toBe(before);
  });

  it('finds a secret in a committed cassette', async () => {
    const tampered = join(dir, 'tampered.json');
    const text = readFileSync(cassettePath, 'utf8').replace(
      '"Bearer {{secret:2}}"',
      '"Bearer abcdef123456"',
    );
    writeFileSync(tampered, text);
    expect(await scanCassette(cassettePath)).toEqual([]);
    expect(await scanCassette(tampered)).toEqual([
      'test "lifecycle", exchange 2 (POST /records): a secret in the request header authorization',
    ]);
    expect(await scanCassette(cassettePath, [PASSWORD])).toEqual([]);
  });
});
