import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Connector, ParameterEntry } from '@connector-sdk/core';
import { outlineOf, secretConfigKeys } from './connector-outline.js';
import { refusal } from './console-guard.js';
import { consolePage } from './console-page.js';
import { listenOnLoopback } from '../loopback.js';
import type { ConsoleSession } from './console-session.js';
import { SecretSet } from '../../secrets/secret-forms.js';
import {
  placeholderFor,
  savedFiles,
  savedTestSource,
  saveName,
  writeSavedTest,
  type SaveTarget,
} from './saved-test.js';
import { callInput, callStep } from './scenario.js';

// The console's HTTP side: its page and the API the page calls, on 127.0.0.1 behind the guard. Every answer is
// JSON the page renders; an error answers `{ code, message }` with the message masked, as the transcript is.

/** What the console server needs of the dev server. */
export interface ConsoleHost {
  readonly session: ConsoleSession;
  /** The connector serving now. */
  readonly connector: () => Connector;
  /** The configuration the dev server starts the form with. */
  readonly config: readonly ParameterEntry[];
  readonly save: () => SaveTarget;
  /** Whether the end-system calls are recorded (the tap was free), without which nothing can be saved. */
  readonly recording: boolean;
}

/** The console, listening. */
export interface ConsoleServer {
  readonly server: Server;
  /** The page's address, token included. */
  readonly url: string;
}

const MAX_BODY = 32 * 1024 * 1024;
const EVENT_WAIT_MS = 20_000;

class ConsoleRequestError extends Error {
  /** The fields of a form that failed, each with what is wrong. */
  fields: Readonly<Record<string, string>> | undefined;
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

async function jsonBody(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY)
      throw new ConsoleRequestError(413, 'TOO_LARGE', 'The request is too large');
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    const value: unknown = text === '' ? {} : JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      return value as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw new ConsoleRequestError(400, 'INVALID_JSON', 'The request body is not a JSON object');
}

function send(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  response.end(text);
}

/**
 * The configuration to initialize with: the form's text values checked by the connector's own field schemas
 * (a JSON field as typed), a sensitive field left empty taking the dev server's value, which the page never saw.
 *
 * @throws ConsoleRequestError naming each field that fails
 */
function configOf(host: ConsoleHost, values: unknown): ParameterEntry[] {
  const given = (typeof values === 'object' && values !== null ? values : {}) as Record<
    string,
    unknown
  >;
  const entries: ParameterEntry[] = [];
  const errors: Record<string, string> = {};
  for (const field of host.connector().compiled.configFields) {
    const raw = given[field.key];
    let value = typeof raw === 'string' ? raw : '';
    const preset = host.config.find((entry) => entry.key === field.key);
    const secret = field.secret || field.secretInside;
    if (value === '' && secret && preset !== undefined) value = preset.value;
    if (value === '') {
      if (!field.optional) errors[field.key] = 'Required';
      continue;
    }
    const parsed = field.schema.safeParse(value);
    if (!parsed.success) errors[field.key] = parsed.error.issues[0]?.message ?? 'Invalid value';
    entries.push({ key: field.key, value, sensitive: secret });
  }
  if (Object.keys(errors).length > 0)
    throw Object.assign(
      new ConsoleRequestError(400, 'INVALID_CONFIGURATION', 'Some fields are not valid'),
      { fields: errors },
    );
  return entries;
}

async function api(host: ConsoleHost, path: string, request: IncomingMessage): Promise<unknown> {
  const { session } = host;
  if (request.method === 'GET' && path === '/api/outline') {
    const connector = host.connector();
    // A secret the dev script gave as plain text stays out of the page all the same.
    const secret = secretConfigKeys(connector);
    const hidden = (entry: ParameterEntry) => entry.sensitive || secret.has(entry.key);
    const presets = Object.fromEntries(
      host.config.filter((entry) => !hidden(entry)).map((entry) => [entry.key, entry.value]),
    );
    const kept = host.config.filter(hidden).map((entry) => entry.key);
    return { outline: outlineOf(connector), presets, keptSecrets: kept };
  }
  if (request.method === 'GET' && path === '/api/events') {
    const after = Number(/[?&]after=(\d+)/.exec(request.url ?? '')?.[1] ?? 0);
    return { events: await session.eventsAfter(Number.isFinite(after) ? after : 0, EVENT_WAIT_MS) };
  }
  if (request.method !== 'POST')
    throw new ConsoleRequestError(405, 'METHOD_NOT_ALLOWED', 'Use POST for actions');
  const body = await jsonBody(request);
  switch (path) {
    case '/api/initialize':
      return { entries: await session.initialize(configOf(host, body.config)) };
    case '/api/call': {
      const input = callInput(body);
      const operation = outlineOf(host.connector()).operations.find(
        (candidate) => candidate.name === input.operation,
      );
      if (operation === undefined)
        throw new ConsoleRequestError(
          404,
          'NO_SUCH_OPERATION',
          'The connector has no such operation',
        );
      return { entries: await session.step(callStep(operation, input)) };
    }
    case '/api/replay':
      return { entries: await session.replayLast() };
    case '/api/cleanup':
      return { entries: await session.step({ kind: 'cleanup' }) };
    case '/api/expire':
      await session.expire();
      return {};
    case '/api/rate-limit':
      session.rateLimit();
      return {};
    case '/api/save':
      return save(host, typeof body.name === 'string' ? body.name : undefined);
    default:
      throw new ConsoleRequestError(404, 'NOT_FOUND', 'No such console action');
  }
}

async function save(host: ConsoleHost, asked: string | undefined): Promise<unknown> {
  const { session } = host;
  if (!host.recording)
    throw new ConsoleRequestError(
      409,
      'NOT_RECORDING',
      'Another end-system tap is set: nothing was recorded',
    );
  const config = session.config;
  if (config === undefined || session.saved.length === 0)
    throw new ConsoleRequestError(409, 'NOTHING_TO_SAVE', 'Initialize and call something first');
  const target = host.save();
  const name = saveName(asked, new Date());
  const fields = host.connector().compiled.configFields;
  const written = config.map((entry) => {
    if (!entry.sensitive) return entry;
    const field = fields.find((each) => each.key === entry.key);
    const value = placeholderFor(
      entry.key,
      entry.value,
      (candidate) => field?.schema.safeParse(candidate).success ?? true,
    );
    if (value === undefined)
      throw new ConsoleRequestError(
        409,
        'NO_PLACEHOLDER',
        `The ${entry.key} field's schema takes no placeholder the test could send in its place: not saved`,
      );
    return { ...entry, value };
  });
  const source = savedTestSource(target, name, { config: written, steps: session.saved });
  // Whatever the simulator masks and whatever the recording scrubs must not be in the test either.
  const secrets = new SecretSet();
  for (const secret of session.recorder.knownSecrets()) secrets.add(secret);
  if (session.mask(source) !== source || secrets.leaksIn(source))
    throw new ConsoleRequestError(500, 'SECRET_IN_TEST', 'The test would hold a secret: not saved');
  const files = savedFiles(target, name);
  if (files.exists)
    throw new ConsoleRequestError(
      409,
      'EXISTS',
      `${name}.test.ts exists already: save under another name`,
    );
  await writeSavedTest(files, session.recorder, source);
  session.notice('info', `Saved ${files.test} and its cassette`);
  return { test: files.test, cassette: files.cassette };
}

/**
 * Serves the console on 127.0.0.1.
 *
 * @param host - the session and the connector
 * @param port - the port, 0 for a free one
 * @returns the server and the page's address with its token
 * @internal
 */
export async function startConsoleServer(host: ConsoleHost, port: number): Promise<ConsoleServer> {
  const token = randomBytes(24).toString('base64url');
  let listening = 0;
  const server = createServer((request, response) => {
    // The path as sent, up to its query: a request line no URL parser takes (`GET //[`) is refused below,
    // never thrown where nothing would catch it.
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    const isPage = request.method === 'GET' && path === '/';
    const refused = refusal(request, { port: listening, token }, isPage ? 'query' : 'header');
    if (refused !== undefined) {
      send(response, 403, { code: 'CONSOLE_REFUSED', message: refused });
      return;
    }
    if (isPage) {
      const nonce = randomBytes(16).toString('base64');
      response.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'x-frame-options': 'DENY',
        'content-security-policy':
          `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; ` +
          "connect-src 'self'; img-src data:; form-action 'none'; frame-ancestors 'none'; base-uri 'none'",
      });
      response.end(consolePage(nonce));
      return;
    }
    api(host, path, request).then(
      (body) => send(response, 200, body),
      (error: unknown) => {
        if (error instanceof ConsoleRequestError)
          send(response, error.status, {
            code: error.code,
            message: host.session.mask(error.message),
            ...(error.fields === undefined
              ? {}
              : {
                  fields: Object.fromEntries(
                    Object.entries(error.fields).map(([key, text]) => [
                      key,
                      host.session.mask(text),
                    ]),
                  ),
                }),
          });
        else
          send(response, error instanceof TypeError ? 400 : 500, {
            code: error instanceof TypeError ? 'BAD_REQUEST' : 'CONSOLE_ERROR',
            message: host.session.mask(error instanceof Error ? error.message : String(error)),
          });
      },
    );
  });
  listening = await listenOnLoopback(server, port);
  return { server, url: `http://127.0.0.1:${listening}/?token=${token}` };
}
