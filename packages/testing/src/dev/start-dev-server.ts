import { realpathSync } from 'node:fs';
import { createServer } from 'node:http';
import { isAbsolute, join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MemoryStore, type Connector, type ParameterEntry } from '@connector-sdk/core';
import { tapEndSystem } from '@connector-sdk/core/http';
import {
  createNodeHandler,
  type NodeHandler,
  type RequestListenerOptions,
} from '@connector-sdk/node';
import { toEntries } from '../simulator/platform-simulator.js';
import type { ConfigInput } from '../simulator/simulator-types.js';
import { listenOnLoopback } from './loopback.js';
import { importConnector } from './reload/connector-module.js';
import { secretConfigKeys } from './console/connector-outline.js';
import { startConsoleServer } from './console/console-server.js';
import { consoleCalls } from './console/console-calls.js';
import { ConsoleSession } from './console/console-session.js';
import { devSessionKey } from './reload/dev-session-key.js';
import { logEndSystemCalls } from './console/end-system-log.js';
import { projectRoot } from './reload/project-root.js';
import { ReloadQueue } from './reload/reload-queue.js';
import { watchLoadedFiles } from './reload/reload-hooks.js';
import { transcriptChanges } from './console/scenario.js';
import { SourceWatcher } from './reload/source-watcher.js';

/** Options of {@link startDevServer}. */
export interface DevServerOptions {
  /** The module that exports the connector: `new URL('./connector.ts', import.meta.url)`, or a file path. */
  readonly connector: URL | string;
  /** The export that holds the connector. @default `default`, else the module's one export that is a connector */
  readonly exportName?: string;
  /**
   * The configuration the console's form starts with, as the platform's form would hold it. Sensitive values
   * are never sent to the page: left empty there, they are taken from here.
   */
  readonly config?: ConfigInput;
  /** The connector's port on 127.0.0.1. @default the `PORT` environment variable, else 3000 */
  readonly port?: number;
  /** The console's port on 127.0.0.1. @default 0 (a free one) */
  readonly consolePort?: number;
  /**
   * The connector's handler options, as `serve` takes them: `egress` for an end system on this machine, say.
   * `sessionKey` defaults to a development key kept in the project's `node_modules/.cache`, so sessions
   * survive reloads and restarts; `allowedHosts` to `127.0.0.1` and `localhost` (a tunnel's name must be added).
   */
  readonly handlerOptions?: RequestListenerOptions;
  /** Reload when a source file the connector loaded changes. @default true */
  readonly watch?: boolean;
  /** Serve the console. @default true */
  readonly console?: boolean;
  /** After a reload, run the console's last scenario again and print what changed. @default true */
  readonly rerun?: boolean;
  /** Where the console saves tests and cassettes. @default the project's `test/console` */
  readonly saveTo?: URL | string;
  /** Makes the end system end a session (the console's "Expire session"); without it, the console answers
   * the next call's end-system requests with a 401 in the end system's place. */
  readonly expireSession?: (session: readonly ParameterEntry[]) => void | Promise<void>;
  /** Where the terminal lines go. @default standard output, a line each */
  readonly print?: (line: string) => void;
}

/** What a reload did. */
export interface ReloadOutcome {
  /** Whether the new sources loaded; when not, the last version keeps serving. */
  readonly loaded: boolean;
  /** How long loading took, in milliseconds. */
  readonly ms: number;
  /** The lines of the last scenario's transcript that changed (empty when none, or no scenario ran). */
  readonly changes: readonly string[];
}

/** A running dev server. */
export interface DevServer {
  /** The connector's base URL, such as `http://127.0.0.1:3000` (the platform calls `{url}/sdk/api/1.0`). */
  readonly url: string;
  /** The console's address, with this run's token; `undefined` without the console. */
  readonly consoleUrl: string | undefined;
  /** How many times the connector was loaded. */
  readonly generation: number;
  /** The files the connector loaded from the project, which are watched. */
  readonly files: readonly string[];
  /** Loads the connector again now, as a change would. */
  reload(): Promise<ReloadOutcome>;
  /** Stops serving and watching. */
  close(): Promise<void>;
}

/**
 * Serves a connector for development: on 127.0.0.1, loaded again whenever a source file it loaded changes
 * (sessions survive, signed with a key kept for the project), with the last console scenario run again after each
 * reload and what changed in its transcript printed; and the dev console, a page on 127.0.0.1 behind a token
 * printed in the terminal, that initializes with the connector's configuration form, calls its operations,
 * shows each call's masked transcript with the end-system calls made under it, expires the session, rate-limits,
 * replays, and saves the session as a cassette and a Vitest test. Refused when `NODE_ENV` is `production`.
 *
 * @param options - the connector's module, the console's starting configuration, handler options
 * @returns the running server
 * @throws Error when `NODE_ENV` is `production`, or the module exports no connector
 * @example
 * ```ts
 * const dev = await startDevServer({
 *   connector: new URL('./connector.ts', import.meta.url),
 *   config: { url: 'http://127.0.0.1:4010', password: { value: 'dev-password', sensitive: true } },
 *   handlerOptions: { egress: { allow: ['127.0.0.1'] } },
 * });
 * ```
 */
export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  if (process.env.NODE_ENV === 'production')
    throw new Error(
      'startDevServer is a development tool: it does not run when NODE_ENV is production',
    );
  const moduleUrl =
    options.connector instanceof URL
      ? options.connector
      : pathToFileURL(
          isAbsolute(options.connector)
            ? options.connector
            : join(process.cwd(), options.connector),
        );
  // Real paths: Node loads imports by theirs, and a project reached through a symlink (macOS's /tmp, a linked
  // home folder) would otherwise have no file under its root.
  const modulePath = realpathSync(fileURLToPath(moduleUrl));
  const root = projectRoot(modulePath);
  const print = options.print ?? ((line: string) => void process.stdout.write(`${line}\n`));
  const config = options.config === undefined ? [] : toEntries(options.config);
  const handlerOptions: RequestListenerOptions = {
    ...options.handlerOptions,
    // Loopback names always, and the author's besides (a tunnel's): a page elsewhere could point a name of its
    // own at 127.0.0.1 (DNS rebinding) and call the connector with the developer's end system within reach.
    allowedHosts: ['127.0.0.1', 'localhost', ...(options.handlerOptions?.allowedHosts ?? [])],
    sessionKey:
      options.handlerOptions?.sessionKey ??
      (process.env.CONNECTOR_SDK_SESSION_KEY?.trim() || devSessionKey(root)),
    // One store for every load of the connector: what a session keeps in it (a refreshed token) survives too.
    store: options.handlerOptions?.store ?? new MemoryStore(),
  };

  const watcher = new SourceWatcher((changed) => void reloads.push(changed));
  const stopFiles = watchLoadedFiles(root, (path) => {
    if (options.watch !== false) watcher.add(path);
  });
  if (options.watch !== false) watcher.add(modulePath);
  let generation = 1;
  let loaded = await importConnector(moduleUrl, options.exportName, generation);
  let handle: NodeHandler = createNodeHandler(loaded.connector, handlerOptions);
  const current = (): Connector => loaded.connector;

  const secretKeys = secretConfigKeys(loaded.connector);
  let url = '';
  const session = new ConsoleSession({
    connectorUrl: () => url,
    expireSession: options.expireSession,
    secrets: config
      .filter((entry) => entry.sensitive || secretKeys.has(entry.key))
      .map((entry) => entry.value),
  });
  const server = createServer((request, response) => {
    // The console's own platform calls run in its context: their end-system calls are its to show and record.
    const ours =
      request.headers['x-sdk-system-id'] === session.systemId ||
      (request.url ?? '').includes(`systemId=${session.systemId}`);
    if (ours) consoleCalls.run(true, () => void handle(request, response));
    else void handle(request, response);
  });
  const port = await listenOnLoopback(server, options.port ?? Number(process.env.PORT ?? 3000));
  url = `http://127.0.0.1:${port}`;
  const untrace = logEndSystemCalls((call, inConsoleCall) =>
    session.sawEndSystemCall(call, inConsoleCall),
  );
  let untap: (() => void) | undefined;
  try {
    untap = tapEndSystem((attempt) => session.tap(attempt));
  } catch (error) {
    print(
      `The console cannot record end-system calls (${(error as Error).message}): saving is off.`,
    );
  }
  const saveDirectory =
    options.saveTo === undefined
      ? join(root, 'test', 'console')
      : options.saveTo instanceof URL
        ? fileURLToPath(options.saveTo)
        : options.saveTo;
  const egressAllow = (handlerOptions.egress?.allow ?? []).filter(
    (entry): entry is string => typeof entry === 'string',
  );
  const consoleServer =
    options.console === false
      ? undefined
      : await startConsoleServer(
          {
            session,
            connector: current,
            config,
            recording: untap !== undefined,
            save: () => ({
              directory: saveDirectory,
              connectorModule: modulePath,
              exportName: loaded.exportName,
              egressAllow,
            }),
          },
          options.consolePort ?? 0,
        );

  async function reload(changed: readonly string[]): Promise<ReloadOutcome> {
    const started = performance.now();
    const shown = changed.map((file) => relative(root, file)).join(', ') || 'the connector';
    try {
      const next = await importConnector(moduleUrl, loaded.exportName, ++generation);
      handle = createNodeHandler(next.connector, handlerOptions);
      loaded = next;
    } catch (error) {
      const message = session.mask(error instanceof Error ? error.message : String(error));
      print(`✗ ${shown} did not load; the last version keeps serving:\n  ${message}`);
      session.notice('error', `Reload failed, the last version keeps serving: ${message}`);
      return { loaded: false, ms: performance.now() - started, changes: [] };
    }
    const ms = performance.now() - started;
    print(`↻ reloaded ${shown} in ${Math.round(ms)} ms`);
    session.reloaded(generation, changed);
    if (options.rerun === false) return { loaded: true, ms, changes: [] };
    const run = await session.rerun().catch((error: unknown) => {
      print(
        `✗ the last scenario failed: ${session.mask(error instanceof Error ? error.message : String(error))}`,
      );
      return undefined;
    });
    if (run === undefined) return { loaded: true, ms, changes: [] };
    const changes = transcriptChanges(run.before, run.after);
    print(
      changes.length === 0
        ? `  the last scenario ran again: its ${run.after.length} exchanges read as before`
        : `  the last scenario ran again; what changed:\n${changes.map((line) => `  ${line}`).join('\n')}`,
    );
    return { loaded: true, ms, changes };
  }
  const reloads = new ReloadQueue(reload);

  print(
    `The connector runs at ${url}/sdk/api/1.0` +
      (options.watch === false ? '.' : ', and reloads when its sources change.'),
  );
  if (consoleServer !== undefined)
    print(`Dev console: ${consoleServer.url}\n  (this machine only; the token is this run's)`);

  return {
    url,
    consoleUrl: consoleServer?.url,
    get generation() {
      return generation;
    },
    get files() {
      return watcher.files;
    },
    reload: () => reloads.push([]),
    async close() {
      watcher.close();
      stopFiles();
      untrace();
      untap?.();
      const closing = [server, consoleServer?.server].map(
        (each) =>
          new Promise<void>((resolve) => {
            if (each === undefined) return resolve();
            each.close(() => resolve());
            each.closeAllConnections();
          }),
      );
      await Promise.all(closing);
    },
  };
}
