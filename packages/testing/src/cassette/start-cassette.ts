import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tapEndSystem, type EndSystemAttempt } from '@connector-sdk/core/http';
import { readCassetteFile } from './cassette-file.js';
import type { CassetteMismatchError } from './cassette-errors.js';
import { CassetteRecorder, readRequest, requestOf } from './record/cassette-recorder.js';
import { CassetteReplayer } from './replay/cassette-replayer.js';
import { announceReplayedCall } from './replayed-calls.js';
import type { CassetteMatcher } from './replay/replay-match.js';

/**
 * Options of {@link startCassette}.
 *
 * @example
 * ```ts
 * const options: CassetteOptions = { path: 'test/cassettes/acme.json', secrets: [process.env.ACME_TOKEN ?? ''] };
 * ```
 */
export interface CassetteOptions {
  /** The cassette file (JSON), such as `new URL('./cassettes/acme.json', import.meta.url)`. */
  readonly path: string | URL;
  /**
   * Record the end system's answers, or replay them offline.
   *
   * @default 'replay', or 'record' when the environment variable `CONNECTOR_SDK_RECORD` is `1` (every
   * cassette), a directory (every cassette, written there) or this cassette's path
   */
  readonly mode?: 'record' | 'replay';
  /**
   * How a replayed request finds its recording: the parts compared, or a function.
   *
   * @default ['method', 'origin', 'path', 'query', 'body', 'credentials']
   */
  readonly match?: CassetteMatcher;
  /** Secrets to scrub besides those the requests knew (a value the test alone knows, say). @default [] */
  readonly secrets?: readonly string[];
}

/**
 * A cassette in use: every end-system call of this process is recorded to it or answered from it.
 *
 * @example
 * ```ts
 * const cassette: Cassette = await startCassette({ path: 'test/cassettes/acme.json' });
 * cassette.section('lists issues');
 * // … the test …
 * await cassette.stop();
 * ```
 */
export interface Cassette {
  /** Whether it records or replays. */
  readonly mode: 'record' | 'replay';
  /** The file it reads or writes. */
  readonly path: string;
  /**
   * Names the test whose calls come next: each test has its own section of the file. @default 'default'
   *
   * @param name - the test's name
   */
  section(name: string): void;
  /** The requests no recording answered since the last call, each an error naming the closest recording. */
  takeMismatches(): CassetteMismatchError[];
  /**
   * Ends the recording or the replay. A recording is scrubbed, proven free of every secret the requests knew
   * and written; a replay fails if a request found no recording.
   *
   * @throws CassetteLeakError when a secret survived scrubbing (nothing is written)
   * @throws CassetteMismatchError for the first request no recording answered and no one took
   */
  stop(): Promise<void>;
}

/** Where a recording goes, or `undefined` to replay, from the option and `CONNECTOR_SDK_RECORD`. */
function recordPath(path: string, mode: CassetteOptions['mode']): string | undefined {
  if (mode === 'replay') return undefined;
  const env = process.env.CONNECTOR_SDK_RECORD?.trim() ?? '';
  const off = env === '' || env === '0' || env === 'false';
  if (off) return mode === 'record' ? path : undefined;
  if (['1', 'true', 'all'].includes(env)) return path;
  const named = resolve(env);
  if (named.endsWith('.json')) return named === path || mode === 'record' ? path : undefined;
  return join(named, basename(path));
}

/**
 * Starts recording every end-system call made through the SDK's client in this process to a cassette, or
 * replaying them from it offline. A recording keeps each call's method, URL, headers, body, status,
 * answer headers and body, per test and in order; before it is written every secret the requests knew
 * (sensitive configuration, secret session values, `addSecret`, the credentials sent) is replaced by a
 * placeholder such as `{{secret:1}}`, in every form the redactor knows, and `Authorization`, `Cookie`,
 * `Set-Cookie` and other credential headers, and credential-named fields whatever their case (`accessToken`,
 * `refresh_token`) in JSON and form bodies and URL queries (a `Location`'s too), whatever their value; the
 * file is then searched for every one of them and not written if one is found. A replay answers each call from the first unused recording of the
 * test that matches (method, origin, path, query and body by default; a placeholder matches a non-empty
 * value only, one of the request's secrets), with placeholders put back: what the connector sent in their
 * place, or a `replayed-secret-N` handed out for a token it received, so a login's token flows on. Only one cassette can be in use at a time.
 *
 * @param options - the file, the mode, the matcher and extra secrets
 * @returns the cassette in use; call `stop()` when done
 * @throws Error when replaying and the file does not exist, or another cassette is in use
 * @example
 * ```ts
 * const cassette = await startCassette({ path: 'test/cassettes/acme.json' });
 * try {
 *   cassette.section('lists issues');
 *   const platform = createPlatformSimulator({ target: connector, config });
 *   await platform.call({ path: '/issues' });
 * } finally {
 *   await cassette.stop();
 * }
 * ```
 */
export async function startCassette(options: CassetteOptions): Promise<Cassette> {
  const path =
    typeof options.path === 'string' ? resolve(options.path) : fileURLToPath(options.path);
  const writeTo = recordPath(path, options.mode);
  if (writeTo === undefined) {
    const file = await readCassetteFile(path);
    if (file === undefined)
      throw new Error(`No cassette at ${path}: record it first, with CONNECTOR_SDK_RECORD=1`);
    const replayer = new CassetteReplayer(file, path, {
      match: options.match,
      secretsAreSent: true,
    });
    // fetch's own Response: a server that replaces the global one (@hono/node-server does) makes answers ky
    // cannot decorate, and a replayed call must be answered as a fetch would.
    const FetchResponse = (await fetch('data:,')).constructor as typeof Response;
    const untap = tapEndSystem(async (attempt: EndSystemAttempt) => {
      announceReplayedCall(attempt.request.method, attempt.request.url);
      return replayer.answer(
        await requestOf(attempt.request),
        attempt.secrets.values(),
        FetchResponse,
      );
    });
    let taken = 0;
    return {
      mode: 'replay',
      path,
      section: (name) => replayer.section(name),
      takeMismatches: () => replayer.mismatches.slice(taken, (taken = replayer.mismatches.length)),
      stop: () => {
        untap();
        const left = replayer.mismatches.slice(taken);
        if (left.length > 0) return Promise.reject(left[0] as Error);
        return Promise.resolve();
      },
    };
  }
  const recorder = new CassetteRecorder();
  recorder.secrets(() => options.secrets ?? []);
  const untap = tapEndSystem(async (attempt) => {
    recorder.secrets(() => attempt.secrets.values());
    const request = readRequest(attempt.request.clone());
    const response = await attempt.send();
    recorder.record(request, response.clone());
    return response;
  });
  return {
    mode: 'record',
    path: writeTo,
    section: (name) => recorder.section(name),
    takeMismatches: () => [],
    stop: async () => {
      untap();
      await recorder.write(writeTo);
    },
  };
}
