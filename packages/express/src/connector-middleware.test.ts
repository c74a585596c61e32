import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express5 from 'express';
import express4 from 'express4';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorBodySchema, defineConnector, field, z } from '@connector-sdk/core';
import { connectorMiddleware } from './index.js';

const connector = defineConnector({
  name: 'express-test',
  version: '1.0.0',
  config: { url: field.url() },
  session: { 'X-Url': field.url() },
  initialize: ({ config }) => ({ 'X-Url': config.url }),
  operations: ({ post }) => ({
    echo: post('/echo', { body: z.unknown() }, ({ body }) => ({ body })),
    upload: post(
      '/upload',
      { upload: { file: 'file', required: ['fileName'] } },
      async ({ body }) => ({
        fileName: body.fileName,
        bytes: [...(await body.file.bytes())],
      }),
    ),
  }),
});
const entries = JSON.stringify([{ key: 'url', value: 'https://a.example', sensitive: false }]);

let server: Server | undefined;
afterEach(
  () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
);

async function start(app: RequestListener): Promise<string> {
  server = createServer(app);
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe.each([
  ['Express 5', express5],
  ['Express 4', express4],
])('%s', (_name, express) => {
  it.each([
    ['express.raw()', 'raw', 200],
    ['express.text()', 'text', 400],
  ] as const)(
    'serves an upload after %s only when the bytes survived it',
    async (_parser, parser, status) => {
      const app = express();
      app.use(express[parser]({ type: '*/*' }));
      app.use('/sdk/api/1.0', connectorMiddleware(connector));
      const origin = await start(app as unknown as RequestListener);
      const init = await fetch(`${origin}/sdk/api/1.0/initialize/s?systemId=x`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: entries,
      });
      const session = Object.fromEntries(
        ((await init.json()) as { key: string; value: string }[]).map((e) => [e.key, e.value]),
      );
      const form = new FormData();
      form.append('fileName', 'bin.dat');
      form.append('file', new Blob([new Uint8Array([0, 255, 128, 10])]), 'bin.dat');
      const response = await fetch(`${origin}/sdk/api/1.0/upload`, {
        method: 'POST',
        headers: session,
        body: form,
      });
      expect(response.status).toBe(status);
      const answer = (await response.json()) as unknown;
      if (status === 200) expect(answer).toEqual({ fileName: 'bin.dat', bytes: [0, 255, 128, 10] });
      else
        expect(ErrorBodySchema.parse(answer).errors.message).toContain(
          'read the upload as text, which loses its bytes',
        );
    },
  );

  it.each(['/sdk/api/1.0', '/connectors/acme/1.0'])(
    'serves the connector mounted at the versioned base %s',
    async (mount) => {
      const app = express();
      app.use(mount, connectorMiddleware(connector));
      const origin = await start(app as unknown as RequestListener);
      const init = await fetch(`${origin}${mount}/initialize/s?systemId=x`, {
        method: 'POST',
        body: entries,
      });
      expect(init.status).toBe(200);
      expect((await fetch(`${origin}${mount}/discover`)).status).toBe(200);
      const missing = await fetch(`${origin}${mount}/nope`);
      expect(ErrorBodySchema.parse(await missing.json()).errors.code).toBe('ROUTE_NOT_FOUND');
    },
  );

  it('serves a mount without the version, the version then in the path', async () => {
    const app = express();
    app.use('/connectors/acme', connectorMiddleware(connector));
    const origin = await start(app as unknown as RequestListener);
    expect((await fetch(`${origin}/connectors/acme/1.0/discover`)).status).toBe(200);
    const version = await fetch(`${origin}/connectors/acme/2.0/discover`);
    expect(ErrorBodySchema.parse(await version.json()).errors.code).toBe('UNSUPPORTED_VERSION');
  });

  it("at the root, leaves the app's other routes and errors to the app", async () => {
    const app = express();
    app.use(express.json());
    app.use(connectorMiddleware(connector));
    app.get('/health', (_req, res) => void res.send('ok'));
    app.get('/boom', () => {
      throw Object.assign(new Error('app failure'), { status: 418 });
    });
    app.use(
      (
        error: { status?: number },
        _req: unknown,
        res: { status(code: number): { send(body: string): void } },
        _next: unknown,
      ) => {
        res.status(error.status ?? 500).send('handled by the app');
      },
    );
    const origin = await start(app as unknown as RequestListener);
    expect(await (await fetch(`${origin}/health`)).text()).toBe('ok');
    const boom = await fetch(`${origin}/boom`);
    expect(boom.status).toBe(418);
    expect(await boom.text()).toBe('handled by the app');
    const broken = await fetch(`${origin}/sdk/api/1.0/initialize/s?systemId=x`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '[{',
    });
    expect(broken.status).toBe(400);
    expect(ErrorBodySchema.parse(await broken.json()).errors.code).toBe('INVALID_JSON');
  });

  it('serves a mount whose last segment is a number but not a version', async () => {
    const app = express();
    app.use('/tenants/:id', connectorMiddleware(connector));
    const origin = await start(app as unknown as RequestListener);
    expect((await fetch(`${origin}/tenants/42/1.0/discover`)).status).toBe(200);
  });

  it("applies the connector's body limit after a more generous body parser", async () => {
    const app = express();
    app.use(express.json({ limit: '10mb' }));
    app.use('/sdk/api', connectorMiddleware(connector, { bodyLimit: 64 * 1024 }));
    const origin = await start(app as unknown as RequestListener);
    const big = JSON.stringify([{ key: 'url', value: 'a'.repeat(200 * 1024), sensitive: false }]);
    const response = await fetch(`${origin}/sdk/api/1.0/initialize/s?systemId=x`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: big,
    });
    expect(response.status).toBe(413);
    expect(ErrorBodySchema.parse(await response.json()).errors.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('says clearly when an earlier parser left the body as something other than JSON', async () => {
    const app = express();
    app.use(express.urlencoded({ extended: false }));
    app.use('/sdk/api', connectorMiddleware(connector));
    const origin = await start(app as unknown as RequestListener);
    const response = await fetch(`${origin}/sdk/api/1.0/initialize/s?systemId=x`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: entries,
    });
    expect(response.status).toBe(400);
    expect(ErrorBodySchema.parse(await response.json()).errors).toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining('application/json'),
    });
  });

  it('accepts bodies already read by express.text() or express.raw()', async () => {
    for (const parser of [express.text({ type: '*/*' }), express.raw({ type: '*/*' })]) {
      const app = express();
      app.use(parser);
      app.use('/sdk/api', connectorMiddleware(connector));
      const origin = await start(app as unknown as RequestListener);
      const init = await fetch(`${origin}/sdk/api/1.0/initialize/s?systemId=x`, {
        method: 'POST',
        body: entries,
      });
      expect(init.status).toBe(200);
      await new Promise<void>((resolve) => server?.close(() => resolve()));
      server = undefined;
    }
  });
});
