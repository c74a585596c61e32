// Runs the releases of docs/versioning.md side by side, as instances of one rolling deploy behind one address
// (one session key), through the platform simulator: each release's sessions replayed to the others, every row
// of the guide's table of session changes, what `version` is used for, and the facts its release section states.
import { readFileSync, readdirSync } from 'node:fs';
import {
  API_VERSION,
  createHandler,
  defineConnector,
  field,
  MemoryStore,
  z,
  type Connector,
  type ConnectorHandler,
  type FieldShape,
} from '@connector-sdk/core';
import { createPlatformSimulator } from '@connector-sdk/testing';
import { describe, expect, it } from 'vitest';
import { release100, release110, release120 } from './versioning.js';

const sessionKey = 'one-key-for-every-instance-of-acme-0123456789';
const config = {
  url: 'https://acme.example',
  token: { value: 'tok-123456', sensitive: true },
};

/** One address in front of instances that run different releases: `serve` picks the one the next call reaches. */
function rollingDeploy(releases: Record<string, Connector>) {
  const instances = Object.fromEntries(
    Object.entries(releases).map(([name, connector]) => [
      name,
      createHandler(connector, { sessionKey }),
    ]),
  );
  let serving: ConnectorHandler | undefined;
  const target: ConnectorHandler = (request) =>
    (serving as ConnectorHandler)(request);
  return {
    target,
    serve(name: string) {
      serving = instances[name];
    },
  };
}

describe('adding a session field in two steps', () => {
  const deploy = rollingDeploy({
    '1.0.0': release100,
    '1.1.0': release110,
    '1.2.0': release120,
  });
  const where = { method: 'GET', path: '/where', withSession: true } as const;

  it("1.1.0 reads 1.0.0's sessions, and 1.0.0 reads 1.1.0's", async () => {
    const platform = createPlatformSimulator({ target: deploy.target, config });
    deploy.serve('1.0.0');
    await platform.initialize();
    deploy.serve('1.1.0');
    expect(await platform.request(where)).toMatchObject({
      status: 200,
      body: { url: 'https://acme.example', region: 'eu' },
    });

    const usPlatform = createPlatformSimulator({
      target: deploy.target,
      config: { ...config, region: 'us' },
    });
    await usPlatform.initialize();
    expect((await usPlatform.request(where)).body).toMatchObject({
      region: 'us',
    });
    deploy.serve('1.0.0');
    expect(await usPlatform.request(where)).toMatchObject({ status: 200 });
  });

  it("1.2.0 answers 1.0.0's session 401 naming the field; the platform initializes again", async () => {
    const platform = createPlatformSimulator({ target: deploy.target, config });
    deploy.serve('1.0.0');
    await platform.initialize();
    deploy.serve('1.2.0');
    const replayed = await platform.request(where);
    expect(replayed).toMatchObject({ status: 401, code: 'SESSION_INVALID' });
    expect(replayed.body).toEqual({
      errors: {
        code: 'SESSION_INVALID',
        message: "The session is invalid: 'X-Acme-Region' is required",
      },
    });
    const retried = await platform.call({ path: '/where' });
    expect(retried).toMatchObject({ status: 200, body: { region: 'eu' } });
    expect(
      platform.transcript.map(
        (entry) => entry.type === 'exchange' && entry.step,
      ),
    ).toEqual(['initialize', 'request', 'call', 'initialize', 'call']);
  });
});

describe('the table of session changes', () => {
  const acme = (options: {
    readonly name?: string;
    readonly version?: string;
    readonly session: FieldShape;
    readonly values: Record<string, string>;
  }): Connector =>
    defineConnector({
      name: options.name ?? 'acme-tracker',
      version: options.version ?? '1.0.0',
      config: { url: field.url(), token: field.secret() },
      session: options.session,
      initialize: () => options.values as never,
      operations: ({ get }) => ({
        where: get('/where', ({ session }) => session),
      }),
    });
  const before = acme({
    session: { Authorization: field.secret(), 'X-Acme-Url': field.url() },
    values: {
      Authorization: 'Bearer tok-123456',
      'X-Acme-Url': 'http://acme.example/',
    },
  });
  const withRegion = (region: z.ZodType) =>
    acme({
      session: {
        Authorization: field.secret(),
        'X-Acme-Url': field.url(),
        'X-Acme-Region': region,
      },
      values: {
        Authorization: 'Bearer tok-123456',
        'X-Acme-Url': 'http://acme.example/',
        'X-Acme-Region': 'eu',
      },
    });

  /** The status and code of a call with a session one release made, answered by another. */
  async function replay(
    made: Connector,
    answered: Connector,
    key = sessionKey,
  ) {
    const maker = createHandler(made, { sessionKey });
    const answerer = createHandler(answered, { sessionKey: key });
    let handler = maker;
    const platform = createPlatformSimulator({
      target: (request) => handler(request),
      config,
    });
    await platform.initialize();
    handler = answerer;
    const answer = await platform.request({
      method: 'GET',
      path: '/where',
      withSession: true,
    });
    return `${answer.status}${answer.code === undefined ? '' : ` ${answer.code}`}`;
  }

  const rows: readonly {
    readonly change: string;
    readonly after: Connector;
    readonly oldOnNew: string;
    readonly newOnOld: string;
  }[] = [
    {
      change: 'a required field added',
      after: withRegion(field.enum(['eu', 'us'])),
      oldOnNew: '401 SESSION_INVALID',
      newOnOld: '200',
    },
    {
      change: 'an optional field added',
      after: withRegion(field.enum(['eu', 'us']).optional()),
      oldOnNew: '200',
      newOnOld: '200',
    },
    {
      change: 'a field removed',
      after: acme({
        session: { Authorization: field.secret() },
        values: { Authorization: 'Bearer tok-123456' },
      }),
      oldOnNew: '200',
      newOnOld: '401 SESSION_INVALID',
    },
    {
      change: "a field's rule tightened",
      after: acme({
        session: {
          Authorization: field.secret(),
          'X-Acme-Url': field.url({ protocols: ['https:'] }),
        },
        values: {
          Authorization: 'Bearer tok-123456',
          'X-Acme-Url': 'https://acme.example/',
        },
      }),
      oldOnNew: '401 SESSION_INVALID',
      newOnOld: '200',
    },
    {
      change: "a header name's case changed",
      after: acme({
        session: { authorization: field.secret(), 'x-acme-url': field.url() },
        values: {
          authorization: 'Bearer tok-123456',
          'x-acme-url': 'http://acme.example/',
        },
      }),
      oldOnNew: '200',
      newOnOld: '200',
    },
    {
      change: 'the version changed',
      after: acme({
        version: '2.0.0',
        session: { Authorization: field.secret(), 'X-Acme-Url': field.url() },
        values: {
          Authorization: 'Bearer tok-123456',
          'X-Acme-Url': 'http://acme.example/',
        },
      }),
      oldOnNew: '200',
      newOnOld: '200',
    },
    {
      change: 'the name changed',
      after: acme({
        name: 'acme',
        session: { Authorization: field.secret(), 'X-Acme-Url': field.url() },
        values: {
          Authorization: 'Bearer tok-123456',
          'X-Acme-Url': 'http://acme.example/',
        },
      }),
      oldOnNew: '401 SESSION_INVALID',
      newOnOld: '401 SESSION_INVALID',
    },
  ];

  it.each(rows)(
    '$change: old session on the new release $oldOnNew, new session on the old $newOnOld',
    async ({ after, oldOnNew, newOnOld }) => {
      expect(await replay(before, after)).toBe(oldOnNew);
      expect(await replay(after, before)).toBe(newOnOld);
    },
  );

  it('a declared header the session did not carry is a 401, even for an optional field', async () => {
    let handler = createHandler(before, { sessionKey });
    const platform = createPlatformSimulator({
      target: (request) => handler(request),
      config,
    });
    await platform.initialize();
    handler = createHandler(withRegion(field.enum(['eu', 'us']).optional()), {
      sessionKey,
    });
    const answer = await platform.request({
      method: 'GET',
      path: '/where',
      headers: { 'X-Acme-Region': 'us' },
      withSession: true,
    });
    expect(answer.body).toEqual({
      errors: {
        code: 'SESSION_INVALID',
        message:
          "The session header 'X-Acme-Region' was not part of the session initialize answered; initialize again",
      },
    });
  });

  it('another session key: every session is a 401', async () => {
    expect(
      await replay(
        before,
        before,
        'another-key-for-the-new-instances-0123456789',
      ),
    ).toBe('401 SESSION_INVALID');
  });
});

describe('version', () => {
  it('is answered by discover as it is, and compared with nothing', async () => {
    const build = defineConnector({
      ...release100.adapter,
      version: 'build 2026-06-01 (a1b2c3)',
    });
    const platform = createPlatformSimulator({ target: build, config });
    expect((await platform.discover()).body).toEqual({
      connectorName: 'acme-tracker',
      connectorVersion: 'build 2026-06-01 (a1b2c3)',
    });
    expect(() =>
      defineConnector({ ...release100.adapter, version: ' ' }),
    ).toThrow('A connector needs a version');
  });

  it('is not the API version in the path: that is 1.0, else 404 UNSUPPORTED_VERSION', async () => {
    expect(API_VERSION).toBe('1.0');
    const platform = createPlatformSimulator({ target: release110, config });
    const answer = await platform.request({
      method: 'GET',
      path: '/sdk/api/1.1/discover',
      fromRoot: true,
    });
    expect(answer).toMatchObject({ status: 404, code: 'UNSUPPORTED_VERSION' });
  });
});

describe('configuration and cached values across releases', () => {
  it('a new required configuration field refuses the configurations saved before it', async () => {
    const required = defineConnector({
      ...release100.adapter,
      config: {
        url: field.url(),
        token: field.secret(),
        region: field.enum(['eu', 'us']),
      },
    });
    const refused = await createPlatformSimulator({
      target: required,
      config,
    }).initialize();
    expect(refused).toMatchObject({
      status: 400,
      code: 'INVALID_CONFIGURATION',
    });
    expect(refused.text).toContain("'region' is required");
    const defaulted = await createPlatformSimulator({
      target: release110,
      config,
    }).initialize();
    expect(defaulted.status).toBe(200);
  });

  it('a cached value of an older shape reads as absent with a schema', async () => {
    const store = new MemoryStore();
    const cacheUser = (shape: 'old' | 'new') =>
      defineConnector({
        name: 'acme-tracker',
        version: shape === 'old' ? '1.0.0' : '1.1.0',
        config: {},
        session: {},
        initialize: () => ({}),
        operations: ({ get }) => ({
          fields: get('/fields', ({ systemCache }) =>
            shape === 'old'
              ? systemCache.getOrSet('fields', () => ['summary'])
              : systemCache.getOrSet('fields', () => [{ id: 'summary' }], {
                  schema: z.array(z.object({ id: z.string() })),
                }),
          ),
        }),
      });
    const deploy = {
      old: createHandler(cacheUser('old'), { sessionKey, store }),
      new: createHandler(cacheUser('new'), { sessionKey, store }),
    };
    let handler = deploy.old;
    const platform = createPlatformSimulator({
      target: (r) => handler(r),
      config: {},
    });
    expect((await platform.call({ path: '/fields' })).body).toEqual([
      'summary',
    ]);
    handler = deploy.new;
    expect((await platform.call({ path: '/fields' })).body).toEqual([
      { id: 'summary' },
    ]);
  });
});

describe('releases', () => {
  const root = new URL('../../', import.meta.url);
  const manifests = readdirSync(new URL('packages/', root)).map(
    (name) =>
      JSON.parse(
        readFileSync(new URL(`packages/${name}/package.json`, root), 'utf8'),
      ) as {
        name: string;
        version: string;
        private?: boolean;
      },
  );
  const changesets = JSON.parse(
    readFileSync(new URL('.changeset/config.json', root), 'utf8'),
  ) as {
    fixed: string[][];
  };

  it('every public package has one version, before 1.0, and one fixed group versions them all', () => {
    const published = manifests.filter((manifest) => manifest.private !== true);
    expect(new Set(published.map((manifest) => manifest.version)).size).toBe(1);
    expect(published[0]?.version).toMatch(/^0\./);
    expect([...(changesets.fixed[0] ?? [])].sort()).toEqual(
      published.map((manifest) => manifest.name).sort(),
    );
  });
});
