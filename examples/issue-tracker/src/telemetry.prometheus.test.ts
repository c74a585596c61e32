// OpenTelemetry metrics, end to end: the example's production entry point (src/main.ts) runs with
// CONNECTOR_OTEL=1, a real Prometheus server (Debian's `prometheus`) scrapes its metrics endpoint once a second
// while the platform simulator drives the connector, and Prometheus's HTTP API answers the request-duration
// series with the operation label. Skipped, saying why, where prometheus is not installed, except under CI
// (.ci/run installs it), where that fails. About 10 s (the entry point starts with tsx, Prometheus scrapes
// once a second). Every wait is for an event or an answer, with no deadline but the hook's or the test's
// timeout: a busy machine makes the test slower, never failed.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPlatformSimulator } from '@connector-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTracker, type RunningTracker } from './tracker/tracker-server.js';

const missing =
  spawnSync('prometheus', ['--version'], { stdio: 'ignore' }).status === 0
    ? undefined
    : 'prometheus is not on PATH (Debian: apt-get install -y prometheus)';
if (missing !== undefined && process.env.CI)
  it('scrapes the connector’s metrics: needs prometheus', () => {
    throw new Error(`${missing}; CI must install it`);
  });
if (missing !== undefined)
  process.stderr.write(`Skipping the Prometheus scrape test: ${missing}\n`);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Ends the polls still running when the tests are done (after a timeout, say). */
const done = new AbortController();

/**
 * Asks `probe` every 200 ms until it returns a value (Prometheus says when it is ready and what it scraped only
 * when asked). No deadline of its own: the hook's or test's timeout bounds the wait.
 */
async function poll<T>(probe: () => Promise<T | undefined>): Promise<T> {
  for (;;) {
    done.signal.throwIfAborted();
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe.skipIf(missing !== undefined)(
  'Prometheus scrapes the example’s metrics',
  () => {
    let tracker: RunningTracker;
    let connector: ChildProcess | undefined;
    let connectorUrl = '';
    let prometheus: ChildProcess | undefined;
    let dir = '';
    let api = '';

    beforeAll(async () => {
      tracker = await startTracker();
      // The entry point as `npm run dev` runs its own, with tsx's flags from that script (the repository's adds a
      // source condition), and node itself as the child, so that SIGTERM reaches it.
      const root = join(import.meta.dirname, '..');
      const { scripts } = JSON.parse(
        readFileSync(join(root, 'package.json'), 'utf8'),
      ) as {
        scripts: { dev: string };
      };
      const flags = scripts.dev.split(' ').slice(1, -1);
      connector = spawn(
        process.execPath,
        ['--import', 'tsx', ...flags, 'src/main.ts'],
        {
          cwd: root,
          env: {
            ...process.env,
            PORT: '0',
            CONNECTOR_OTEL: '1',
            OTEL_EXPORTER_PROMETHEUS_PORT: '0',
            OTEL_TRACES_EXPORTER: 'none',
            CONNECTOR_SDK_EGRESS_ALLOW: '127.0.0.1',
          },
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      // pino's JSON lines: the metrics URL, then the connector's, read as they are written.
      const started = connector;
      const urls = await new Promise<{ metrics: string; connector: string }>(
        (resolve, reject) => {
          let output = '';
          started.stdout?.on('data', (chunk: Buffer) => {
            output += chunk.toString();
            const metrics = /"metrics":"([^"]+)"/.exec(output)?.[1];
            const url = /"url":"([^"]+)\/sdk\/api\/1\.0"/.exec(output)?.[1];
            if (metrics !== undefined && url !== undefined)
              resolve({ metrics, connector: url });
          });
          started.once('exit', (code) =>
            reject(new Error(`the connector exited (${code}):\n${output}`)),
          );
        },
      );
      connectorUrl = urls.connector;
      const target = new URL(urls.metrics);
      dir = mkdtempSync(join(tmpdir(), 'prometheus-'));
      writeFileSync(
        join(dir, 'prometheus.yml'),
        [
          'global:',
          '  scrape_interval: 1s',
          'scrape_configs:',
          '  - job_name: connector',
          `    metrics_path: ${target.pathname}`,
          '    static_configs:',
          `      - targets: ['${target.host}']`,
          '',
        ].join('\n'),
      );
      const port = await freePort();
      api = `http://127.0.0.1:${port}`;
      prometheus = spawn(
        'prometheus',
        [
          `--config.file=${join(dir, 'prometheus.yml')}`,
          `--storage.tsdb.path=${join(dir, 'data')}`,
          `--web.listen-address=127.0.0.1:${port}`,
          '--log.level=warn',
        ],
        { stdio: 'ignore' },
      );
      await poll(async () =>
        (await fetch(`${api}/-/ready`)).ok ? true : undefined,
      );
    }, 60_000);
    afterAll(async () => {
      done.abort();
      if (prometheus && prometheus.exitCode === null) {
        const exited = new Promise((resolve) =>
          prometheus?.once('exit', resolve),
        );
        prometheus.kill('SIGTERM');
        await Promise.race([
          exited,
          new Promise((resolve) => setTimeout(resolve, 5_000)),
        ]);
        if (prometheus.exitCode === null) prometheus.kill('SIGKILL');
      }
      if (connector && connector.exitCode === null) {
        const exited = new Promise((resolve) =>
          connector?.once('exit', resolve),
        );
        connector.kill('SIGTERM');
        await Promise.race([
          exited,
          new Promise((resolve) => setTimeout(resolve, 5_000)),
        ]);
        if (connector.exitCode === null) connector.kill('SIGKILL');
      }
      await tracker?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('answers the request duration series by operation', async () => {
      const platform = createPlatformSimulator({
        target: connectorUrl,
        config: {
          url: tracker.url,
          username: 'alice',
          password: { value: 'wonderland', sensitive: true },
          options: '{"defaultProject":"DEMO"}',
        },
        systemId: 'scraped',
      });
      expect((await platform.initialize()).status).toBe(200);
      expect(
        (await platform.call({ path: '/projects/DEMO/issues' })).status,
      ).toBe(200);
      const query = encodeURIComponent(
        'http_server_request_duration_count{job="connector"}',
      );
      const series = await poll(async () => {
        const answer = (await (
          await fetch(`${api}/api/v1/query?query=${query}`)
        ).json()) as {
          data: {
            result: {
              metric: Record<string, string>;
              value: [number, string];
            }[];
          };
        };
        const found = answer.data.result.map((entry) => entry.metric);
        return found.some(
          (labels) => labels.connector_operation === 'listIssues',
        )
          ? found
          : undefined;
      });
      expect(series).toContainEqual(
        expect.objectContaining({
          connector_name: 'issue-tracker',
          connector_operation: 'initialize',
          http_route: '/sdk/api/1.0/initialize/:sdkSessionId',
          http_request_method: 'POST',
          http_response_status_code: '200',
        }),
      );
      expect(series.map((labels) => labels.connector_operation)).toContain(
        'listIssues',
      );
      // Secrets are not labels: the password and the session never appear in what Prometheus stored.
      expect(JSON.stringify(series)).not.toContain('wonderland');
    }, 30_000);
  },
);
