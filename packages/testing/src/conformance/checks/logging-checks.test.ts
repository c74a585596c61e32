import type { Connector, Logger } from '@connector-sdk/core';
import { serve, type ConnectorServer } from '@connector-sdk/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  recordsConfig,
  recordsConnector,
  LOOPBACK_EGRESS,
} from '../../../test/records-connector.js';
import { unloggedConnector } from '../../../test/unlogged-connector.js';
import { startFakeEndSystem, type FakeEndSystem } from '../../fake-end-system/fake-end-system.js';
import { runConformance } from '../run-conformance.js';

// The check over real HTTP: a connector served by the test itself, its log read as lines, as --log-file does.

let fake: FakeEndSystem;
const servers: ConnectorServer[] = [];
beforeAll(async () => {
  fake = await startFakeEndSystem();
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await fake.close();
});

/** Serves a connector on 127.0.0.1, its log lines written as JSON into `lines`. */
async function served(connector: Connector, lines: string[], format = JSON.stringify) {
  const write =
    (level: string): Logger['info'] =>
    (fields, msg) =>
      lines.push(format({ level, ...fields, msg }));
  const logger: Logger = {
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
  };
  const server = await serve(connector, {
    port: 0,
    host: '127.0.0.1',
    egress: LOOPBACK_EGRESS,
    logger,
  });
  servers.push(server);
  return server.url;
}

const check = async (target: string | Connector, logLines?: () => readonly string[]) => {
  const [result] = await runConformance(
    {
      target,
      config: recordsConfig(fake.url),
      operation: { method: 'POST', path: '/records', body: { title: 'conformance' } },
      ...(logLines === undefined ? {} : { logLines }),
    },
    { only: ['logging.end-system-calls'] },
  );
  return result;
};

describe('logging.end-system-calls', () => {
  it('passes a connector whose every end-system call is logged, read from its log over HTTP', async () => {
    const lines: string[] = [];
    const url = await served(recordsConnector, lines);
    expect(await check(url, () => lines)).toMatchObject({ status: 'passed' });
  });

  it("fails one whose operation's client was made without the request's log, and says how to fix it", async () => {
    const lines: string[] = [];
    const url = await served(unloggedConnector, lines);
    const result = await check(url, () => lines);
    expect(result?.status).toBe('failed');
    expect(result?.message).toMatch(
      // Lines read from a log may come late, so over HTTP the calls are counted over the whole run.
      /- 2 calls POST http:\/\/127\.0\.0\.1:\d+ \(1 logged\), while serving POST \/sdk\/api\/1\.0\/initialize\/[^,]+, POST \/sdk\/api\/1\.0\/records\n/,
    );
    expect(result?.message).toContain('createEndSystemClient({ baseUrl, signal, log })');
  });

  it('is skipped, saying why, where it cannot see the log', async () => {
    const url = await served(unloggedConnector, []);
    expect(await check(url)).toMatchObject({
      status: 'skipped',
      message: expect.stringContaining('pass --log-file <file> (CLI) or logLines (API)'),
    });
  });

  it('is skipped, saying why, when the log is not JSON', async () => {
    const lines: string[] = [];
    const url = await served(unloggedConnector, lines, (fields) => String(fields.msg));
    expect(await check(url, () => lines)).toMatchObject({
      status: 'skipped',
      message: expect.stringContaining('no log line is JSON'),
    });
  });

  it('is skipped, saying why, when it sees no end-system call', async () => {
    const lines = ['{"msg":"request completed"}'];
    // Another process's connector: the kit sees nothing of its calls.
    expect(await check('http://127.0.0.1:9', () => lines)).toMatchObject({
      status: 'skipped',
      message: expect.stringContaining('no end-system call was seen during the run'),
    });
  });

  it('refuses a logger that serve would refuse, instead of passing a connector that cannot be served', async () => {
    // The kit wraps the author's logger to read its lines; the wrapper must not hide a logger that cannot log.
    const run = runConformance({
      target: recordsConnector,
      config: recordsConfig(fake.url),
      handlerOptions: { egress: LOOPBACK_EGRESS, logger: false as unknown as Logger },
    });
    await expect(run).rejects.toThrow(
      new TypeError(
        'logger must have debug, info, warn and error methods (pino and console do); leave it out to log nothing',
      ),
    );
    await expect(
      serve(recordsConnector, { port: 0, host: '127.0.0.1', logger: false as unknown as Logger }),
    ).rejects.toThrow(TypeError);
  });
});
