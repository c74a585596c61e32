import { readFileSync, realpathSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlatformSimulator } from '../simulator/platform-simulator.js';
import { scanCassette } from '../cassette/scrub/scan-cassette.js';
import { SecretSet } from '../secrets/secret-forms.js';
import {
  connectorSource,
  versionSource,
  DEV_PASSWORD,
  runSavedTests,
  startDevProject,
  type DevProject,
} from '../../test/dev-project.js';

// The dev server as `npm run dev` runs it (tsx, a child process, a project of its own): the console's guard, its
// actions through its API, reloads with the platform's session kept, and the saved test run offline.

let project: DevProject;
let connectorUrl: string;
let consoleUrl: URL;
let token: string;
/** Everything the console answered, to search for secrets at the end. */
const answers: string[] = [];

beforeAll(async () => {
  project = await startDevProject();
  connectorUrl = (await project.waitForLine(/runs at /)).replace(/.*runs at (\S+)\/sdk.*/, '$1');
  consoleUrl = new URL((await project.waitForLine(/Dev console: /)).replace(/.*Dev console: /, ''));
  token = consoleUrl.searchParams.get('token') ?? '';
});
afterAll(() => project?.stop());

/** A request to the console, its answer as text. */
function raw(
  path: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: unknown;
    host?: string;
  } = {},
): Promise<{ status: number; text: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const request = httpRequest(
      {
        host: options.host ?? '127.0.0.1',
        port: consoleUrl.port,
        path,
        method: options.method ?? (body === undefined ? 'GET' : 'POST'),
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...options.headers,
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          answers.push(text);
          resolve({ status: response.statusCode ?? 0, text, headers: response.headers });
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** An action of the console's API, with the token. */
async function act(path: string, body?: unknown): Promise<Record<string, unknown>> {
  const answer = await raw(path, { headers: { 'x-console-token': token }, body });
  const parsed = JSON.parse(answer.text) as Record<string, unknown>;
  if (answer.status !== 200)
    throw Object.assign(new Error(answer.text), { status: answer.status, parsed });
  return parsed;
}

const steps = (answer: Record<string, unknown>) =>
  answer.entries as {
    step?: string;
    response?: { status: number };
    endSystem?: { url: string; status?: number }[];
  }[];

describe('the console refuses', () => {
  it('the page without the token, or with a wrong one', async () => {
    expect((await raw('/')).status).toBe(403);
    expect((await raw('/?token=wrong')).status).toBe(403);
    expect((await raw(`/?token=${token}x`)).status).toBe(403);
  });

  it('the API with the token in the query instead of its header', async () => {
    expect((await raw(`/api/outline?token=${token}`)).status).toBe(403);
  });

  it('a page of another origin or site, and another Host', async () => {
    const withToken = { 'x-console-token': token };
    expect(
      (await raw('/api/outline', { headers: { ...withToken, origin: 'http://evil.example' } }))
        .status,
    ).toBe(403);
    expect(
      (await raw('/api/outline', { headers: { ...withToken, 'sec-fetch-site': 'cross-site' } }))
        .status,
    ).toBe(403);
    expect(
      (
        await raw('/api/outline', {
          headers: { ...withToken, host: `evil.example:${consoleUrl.port}` },
        })
      ).status,
    ).toBe(403);
    const refused = await raw('/api/outline', {
      headers: { ...withToken, origin: 'http://evil.example' },
    });
    expect(JSON.parse(refused.text)).toMatchObject({ code: 'CONSOLE_REFUSED' });
    expect(
      (await raw('/api/outline', { headers: { ...withToken, origin: consoleUrl.origin } })).status,
    ).toBe(200);
  });

  it('a request line no URL parser takes, and keeps serving', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(consoleUrl.port), '127.0.0.1', () =>
        socket.end('GET //[ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'),
      );
      let text = '';
      socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      socket.on('end', () => resolve(text)).on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 403/);
    expect((await raw(`/?token=${token}`)).status).toBe(200);
  });

  it('a call the form could not have sent', async () => {
    await expect(act('/api/call', { operation: 'me', params: { id: 1 } })).rejects.toMatchObject({
      status: 400,
    });
    await expect(act('/api/call', { operation: 'me', extra: true })).rejects.toMatchObject({
      status: 400,
    });
  });

  it('connections on any address but loopback', async () => {
    const outside = Object.values(networkInterfaces())
      .flat()
      .find((address) => address !== undefined && !address.internal && address.family === 'IPv4');
    if (outside === undefined) return; // a machine with loopback alone has no other address to try
    await expect(raw(`/?token=${token}`, { host: outside.address })).rejects.toMatchObject({
      code: 'ECONNREFUSED',
    });
  });
});

describe('the connector', () => {
  it('answers loopback names only, whatever the port', async () => {
    const discover = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const url = new URL(connectorUrl);
        httpRequest(
          { host: url.hostname, port: url.port, path: '/sdk/api/1.0/discover', headers: { host } },
          (response) => {
            response.resume();
            resolve(response.statusCode ?? 0);
          },
        )
          .on('error', reject)
          .end();
      });
    expect(await discover(new URL(connectorUrl).host)).toBe(200);
    expect(await discover('localhost')).toBe(200);
    expect(await discover('tunnel.example')).toBe(200);
    expect(await discover('rebound.example')).toBe(421);
  });
});

describe('the console page', () => {
  it('loads nothing from elsewhere, under a policy that allows only itself', async () => {
    const page = await raw(`/?token=${token}`);
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.text).not.toMatch(/(src|href)=["']?(https?:)?\/\//);
    expect(page.text).toContain('<label for="operation">');
  });

  it('builds its forms from the connector: config fields typed, the secret never sent', async () => {
    const { outline, presets, keptSecrets } = (await act('/api/outline')) as {
      outline: {
        config: { key: string; fieldType: string }[];
        operations: { name: string; body?: unknown }[];
      };
      presets: Record<string, string>;
      keptSecrets: string[];
    };
    expect(outline.config.map((field) => [field.key, field.fieldType])).toEqual([
      ['url', 'URL'],
      ['username', 'TEXT_BOX'],
      ['password', 'PASSWORD'],
      ['options', 'JSON'],
    ]);
    expect(presets).not.toHaveProperty('password');
    expect(keptSecrets).toEqual(['password']);
    expect(
      outline.operations.find((operation) => operation.name === 'addNote')?.body,
    ).toMatchObject({
      type: 'object',
      required: ['text'],
    });
  });
});

describe('the console drives the connector as the platform does', () => {
  let url: string;
  beforeAll(async () => {
    url = (await project.waitForLine(/^end system at /)).replace('end system at ', '');
  });

  it('checks a JSON field by its schema before initializing', async () => {
    const refused = act('/api/initialize', {
      config: { url, username: 'alice', options: '{"tag":"far too long a tag"}' },
    });
    await expect(refused).rejects.toMatchObject({
      status: 400,
      parsed: { fields: { options: expect.any(String) } },
    });
  });

  it('initializes with the kept secret and shows the login under it, masked', async () => {
    const answer = await act('/api/initialize', {
      config: { url, username: 'alice', options: '{"tag":"t"}' },
    });
    const [initialize] = steps(answer);
    expect(initialize?.response?.status).toBe(200);
    expect(initialize?.endSystem).toEqual([
      expect.objectContaining({ url: `${url}/login`, status: 200 }),
    ]);
    expect(JSON.stringify(answer)).toContain('***');
  });

  it('calls operations, expires the session, rate-limits and replays', async () => {
    const added = steps(await act('/api/call', { operation: 'addNote', body: '{"text":"hello"}' }));
    expect(added.map((entry) => entry.response?.status)).toEqual([200]);
    expect(added[0]?.endSystem?.[0]).toMatchObject({ status: 201 });

    await act('/api/expire', {});
    const afterExpiry = steps(await act('/api/call', { operation: 'listNotes' }));
    expect(afterExpiry.map((entry) => [entry.step, entry.response?.status])).toEqual([
      ['call', 401],
      ['initialize', 200],
      ['call', 200],
    ]);

    await act('/api/rate-limit', {});
    const limited = (await act('/api/replay', {})).entries as {
      type: string;
      response?: { status: number };
    }[];
    expect(limited.map((entry) => entry.type)).toEqual(['exchange', 'wait', 'exchange']);
    expect(limited[0]?.response?.status).toBe(403);
    expect(limited[2]?.response?.status).toBe(200);
  });

  it('leaves a call made by anyone else alone, even while the console waits out a rate limit', async () => {
    const events = async (after: number) =>
      (await act(`/api/events?after=${after}`)).events as {
        seq: number;
        type: string;
        entry?: { type: string };
      }[];
    const seen = (await events(0)).at(-1)?.seq ?? 0;
    await act('/api/rate-limit', {});
    const limited = act('/api/call', { operation: 'listNotes' });
    // The console's platform now waits out the 429's second: its wait is published first.
    for (let after = seen; ;) {
      const next = await events(after);
      if (next.some((event) => event.type === 'entry' && event.entry?.type === 'wait')) break;
      after = next.at(-1)?.seq ?? after;
    }
    const other = createPlatformSimulator({
      target: connectorUrl,
      config: { url, username: 'alice', password: { value: DEV_PASSWORD, sensitive: true } },
    });
    await other.initialize();
    const answer = await other.call({ path: '/notes' });
    expect(answer.status).toBe(200);
    expect(other.transcript.filter((entry) => entry.type === 'wait')).toEqual([]);
    expect(steps(await limited).map((entry) => entry.response?.status)).toEqual([
      403,
      undefined,
      200,
    ]);
    const shown = await events(seen);
    expect(shown.filter((event) => event.type === 'end-system').length).toBeGreaterThanOrEqual(2);
  });

  it('starts a new sync session at each initialize, a pending fault not carried into it', async () => {
    const first = steps(await act('/api/initialize', { config: { url, username: 'alice' } }));
    await act('/api/rate-limit', {});
    const second = steps(await act('/api/initialize', { config: { url, username: 'alice' } }));
    expect(second.map((entry) => entry.response?.status)).toEqual([200]);
    expect(second[0]?.endSystem).toEqual([expect.objectContaining({ status: 200 })]);
    const id = (entries: typeof first) =>
      JSON.stringify(entries).match(/sdk-session-[0-9a-f-]+/)?.[0];
    expect(id(second)).not.toBe(id(first));
    await act('/api/call', { operation: 'addNote', body: '{"text":"hello"}' });
  });

  it('saves the session as a cassette and a test that passes offline', async () => {
    const saved = (await act('/api/save', { name: 'Notes round trip' })) as {
      test: string;
      cassette: string;
    };
    expect(saved.test).toBe(
      join(realpathSync(project.folder), 'test', 'console', 'notes-round-trip.test.ts'),
    );
    await expect(act('/api/save', { name: 'Notes round trip' })).rejects.toMatchObject({
      status: 409,
    });
    const run = await runSavedTests(project.folder);
    expect(run.output).toMatch(/1 passed/);
    expect(run.status).toBe(0);
  });
});

describe('a reload', () => {
  it('serves the new code with the session the platform holds, and prints what changed', async () => {
    const platform = createPlatformSimulator({
      target: connectorUrl,
      config: {
        url: (await project.waitForLine(/^end system at /)).replace('end system at ', ''),
        username: 'alice',
        password: { value: DEV_PASSWORD, sensitive: true },
      },
    });
    expect((await platform.initialize()).status).toBe(200);
    expect((await platform.call({ path: '/me' })).body).toEqual({ version: 'one' });
    await act('/api/call', { operation: 'me' });

    const from = project.lines.length;
    project.write('src/version.ts', versionSource('two'));
    await project.waitForLine(/↻ reloaded src\/version\.ts/, from);
    await project.waitForLine(/the last scenario ran again/, from);
    const answer = await platform.call({ path: '/me' });
    expect(answer.body).toEqual({ version: 'two' });
    expect(
      platform.transcript.filter(
        (entry) => entry.type === 'exchange' && entry.step === 'initialize',
      ),
    ).toHaveLength(1);
    const printed = project.lines.slice(from).join('\n');
    expect(printed).toContain('-   {"version":"one"}');
    expect(printed).toContain('+   {"version":"two"}');
  });

  it('of code that does not load keeps the last version serving', async () => {
    const from = project.lines.length;
    project.write('src/connector.ts', connectorSource(true));
    await project.waitForLine(/did not load; the last version keeps serving/, from);
    const platform = createPlatformSimulator({ target: connectorUrl, config: {} });
    expect((await platform.discover()).status).toBe(200);
  });
});

describe('no secret', () => {
  it('in the console’s answers, the saved files or the terminal', async () => {
    const secrets = new SecretSet();
    secrets.add(DEV_PASSWORD);
    const saved = ['notes-round-trip.test.ts', 'notes-round-trip.cassette.json'].map((file) =>
      readFileSync(join(project.folder, 'test', 'console', file), 'utf8'),
    );
    expect(answers.length).toBeGreaterThan(10);
    for (const text of [...answers, ...saved, project.lines.join('\n')])
      expect(secrets.leaksIn(text)).toBe(false);
    // The end system's tokens, as the saved cassette shows: placeholders only.
    expect(saved[1]).toMatch(/\{\{secret:\d+\}\}/);
    await expect(
      scanCassette(join(project.folder, 'test', 'console', 'notes-round-trip.cassette.json'), [
        DEV_PASSWORD,
      ]),
    ).resolves.toEqual([]);
    expect(saved.join('\n')).not.toMatch(/tok-[a-z0-9]{8}/);
    expect([...answers, project.lines.join('\n')].join('\n')).not.toMatch(/tok-[a-z0-9]{8}/);
  });
});
