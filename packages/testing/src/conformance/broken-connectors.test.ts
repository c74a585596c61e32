import {
  createHandler,
  defineConnector,
  type ConnectorHandler,
  type ConnectorRequest,
  type ConnectorResponse,
  type HandlerOptions,
} from '@connector-sdk/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordsConfig, recordsConnector, LOOPBACK_EGRESS } from '../../test/records-connector.js';
import { unloggedConnector } from '../../test/unlogged-connector.js';
import { startFakeEndSystem, type FakeEndSystem } from '../fake-end-system/fake-end-system.js';
import type { ConnectorTarget } from '../simulator/transport.js';
import { conformanceChecks } from './checks/conformance-checks.js';
import { runConformance } from './run-conformance.js';

// Each check must catch a connector broken in the way it guards against, and name the fix.

let fake: FakeEndSystem;
beforeAll(async () => {
  fake = await startFakeEndSystem();
});
afterAll(() => fake.close());

const handle = createHandler(recordsConnector, { egress: LOOPBACK_EGRESS });
const json = (status: number, body: unknown): ConnectorResponse => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});
const isInitialize = (request: ConnectorRequest) => request.path.includes('/initialize/');

/** A handler that lets `change` rewrite the correct connector's answers. */
function broken(
  change: (request: ConnectorRequest, response: ConnectorResponse) => ConnectorResponse | undefined,
): ConnectorHandler {
  return async (request) => {
    const response = await handle(request);
    return change(request, response) ?? response;
  };
}

/** Accepts whatever initialize is sent, as a connector that validates nothing would. */
const lenient = broken((request, response) =>
  isInitialize(request) && response.status === 400 ? json(200, []) : undefined,
);

interface Case {
  readonly check: string;
  readonly breaks: string;
  readonly target: ConnectorTarget;
  readonly message: RegExp;
  readonly handlerOptions?: HandlerOptions;
  readonly logLines?: () => readonly string[];
}

const leakedLogs: string[] = [];

const cases: Case[] = [
  {
    check: 'session.expired',
    breaks: "answers an expired session's call with 502 instead of 401",
    target: broken((request, response) =>
      !isInitialize(request) && response.status === 401
        ? json(502, { errors: { code: 'END_SYSTEM_ERROR', message: 'x' } })
        : undefined,
    ),
    message:
      /with an expired session answered 502; expected 401\. Map the end system's 'session expired' answer to a 401/,
  },
  {
    check: 'discover',
    breaks: 'answers discover in another shape',
    target: broken((request) =>
      request.path.endsWith('/discover') ? json(200, { name: 'x' }) : undefined,
    ),
    message: /discover must answer \{ connectorName, connectorVersion \}/,
  },
  {
    check: 'initialize.valid',
    breaks: 'does not mark the token sensitive',
    target: broken((request, response) =>
      isInitialize(request) && response.status === 200
        ? json(
            200,
            (JSON.parse(response.body) as object[]).map((entry) => ({
              ...entry,
              sensitive: false,
            })),
          )
        : undefined,
    ),
    message: /"Authorization" carries a credential but is not marked sensitive/,
  },
  {
    check: 'initialize.valid',
    breaks: 'answers a key that is no header name and a value with a line break',
    target: broken((request, response) =>
      isInitialize(request) && response.status === 200
        ? json(200, [
            ...(JSON.parse(response.body) as object[]),
            { key: 'X Records Url', value: 'a', sensitive: false },
            { key: 'X-Note', value: 'a\r\nb', sensitive: false },
          ])
        : undefined,
    ),
    message:
      /key "X Records Url" is not a valid HTTP header name[\s\S]*value of "X-Note" is empty or holds characters/,
  },
  {
    check: 'initialize.valid',
    breaks: 'answers without content-type',
    target: broken((request, response) =>
      isInitialize(request) ? { ...response, headers: {} } : undefined,
    ),
    message: /content-type is "", not application\/json/,
  },
  {
    check: 'initialize.suppress-notification',
    breaks: 'treats suppressNotification as an unknown field',
    target: async (request) =>
      isInitialize(request) && (await (request.text?.() ?? '')).includes('suppressNotification')
        ? json(400, { errors: { code: 'INVALID_CONFIGURATION', message: 'unknown field' } })
        : handle(request),
    message: /suppressNotification "1" answered 400 INVALID_CONFIGURATION[^;]*; expected 200/,
  },
  ...[
    'initialize.bad-suppress-notification',
    'initialize.missing-system-id',
    'initialize.body.not-json',
    'initialize.body.empty',
    'initialize.body.object',
    'initialize.body.not-entries',
    'initialize.body.missing-sensitive',
    'initialize.body.value-not-string',
    'initialize.body.sensitive-not-boolean',
    'initialize.body.duplicate-keys',
    'initialize.invalid-config',
  ].map((check): Case => ({
    check,
    breaks: 'accepts any initialize body',
    target: lenient,
    message: /answered 200[^;]*; expected 400\. (Let the SDK|Declare each config field)/,
  })),
  {
    check: 'initialize.body.not-json',
    breaks: 'crashes on a body that is not JSON',
    target: async (request) => {
      if (!isInitialize(request)) return handle(request);
      const text = await (request.text?.() ?? '');
      try {
        JSON.parse(text);
      } catch {
        return json(500, { errors: { code: 'INTERNAL_ERROR', message: 'Unexpected end of JSON' } });
      }
      return handle({ ...request, text: () => Promise.resolve(text) });
    },
    message: /a body that is not JSON answered 500 INTERNAL_ERROR[^;]*; expected 400/,
  },
  {
    check: 'initialize.wrong-credentials',
    breaks: 'lets the login failure escape as a 500',
    target: broken((request, response) =>
      isInitialize(request) && response.status === 401
        ? json(500, { errors: { code: 'INTERNAL_ERROR', message: 'HTTPError' } })
        : undefined,
    ),
    message:
      /wrong credentials answered 500 INTERNAL_ERROR[^;]*; expected 401\. Map the end system's login refusal/,
  },
  {
    check: 'session.missing',
    breaks: 'reads its headers itself and crashes without them',
    target: broken((request) =>
      !isInitialize(request) && request.headers.authorization === undefined
        ? json(500, {
            errors: { code: 'INTERNAL_ERROR', message: 'Cannot read properties of undefined' },
          })
        : undefined,
    ),
    message:
      /without session headers answered 500 INTERNAL_ERROR[^;]*; expected 401\. Declare every header/,
  },
  {
    check: 'session.missing',
    breaks: 'answers errors as an array',
    target: broken((_request, response) =>
      response.status >= 400
        ? json(response.status, { errors: [JSON.parse(response.body).errors] })
        : undefined,
    ),
    message: /the error body is not \{ "errors": \{ "code": string, "message": string/,
  },
  {
    check: 'session.wrong-credential',
    breaks: "maps the end system's 401 to a 502",
    target: broken((request, response) =>
      response.status === 401 && !isInitialize(request)
        ? json(502, { errors: { code: 'END_SYSTEM_ERROR', message: 'Request failed' } })
        : undefined,
    ),
    message: /wrong credential in the session answered 502 END_SYSTEM_ERROR[^;]*; expected 401/,
  },
  {
    check: 'session.tampered',
    breaks: 'trusts whatever session a caller replays',
    target: broken((request, response) =>
      !isInitialize(request) && response.status === 401
        ? request.path.includes('/cleanup/')
          ? json(200, {})
          : json(200, { id: 'served anyway' })
        : undefined,
    ),
    message:
      /session entry '[^']+' changed after initialize answered 200[^;]*; expected 401\. Let the SDK/,
  },
  {
    check: 'session.foreign-id',
    breaks: 'cleans up whatever session the path names',
    target: broken((request, response) =>
      request.path.includes('/cleanup/') && response.status === 400 ? json(200, {}) : undefined,
    ),
    message:
      /cleanup of another session id with this session answered 200[^;]*; expected 400 or 401/,
  },
  {
    check: 'operation',
    breaks: 'fails the operation',
    target: broken((request) =>
      request.path.endsWith('/records')
        ? json(500, { errors: { code: 'INTERNAL_ERROR', message: 'oops' } })
        : undefined,
    ),
    message: /POST \/records with a valid session answered 500 INTERNAL_ERROR[^;]*; expected a 2xx/,
  },
  {
    check: 'cleanup',
    breaks: 'fails cleanup when the logout fails',
    target: broken((request) =>
      request.path.includes('/cleanup/')
        ? json(502, { errors: { code: 'END_SYSTEM_ERROR', message: 'logout failed' } })
        : undefined,
    ),
    message:
      /cleanup with cleanupGlobalCache=false answered 502 END_SYSTEM_ERROR[^;]*; expected 200/,
  },
  {
    check: 'route.unknown',
    breaks: 'answers unknown routes with 200',
    target: broken((_request, response) => (response.status === 404 ? json(200, {}) : undefined)),
    message: /GET an unknown route answered 200[^;]*; expected 404/,
  },
  {
    check: 'route.unknown-version',
    breaks: 'serves any version',
    target: broken((request) =>
      request.path.includes('/9.9/')
        ? json(200, { connectorName: 'records', connectorVersion: '1' })
        : undefined,
    ),
    message: /discover under version 9\.9 answered 200[^;]*; expected 404/,
  },
  {
    check: 'rate-limit',
    breaks: 'announces its wait in a header the platform does not read',
    target: recordsConnector,
    handlerOptions: { retryAfterHeader: 'X-Wait' },
    message: /a rate-limit 403 has no Retry-After header/,
  },
  {
    check: 'logging.end-system-calls',
    breaks: "makes its operation's end-system client without the request's log",
    target: unloggedConnector,
    message:
      /End-system calls left no log line:\n {2}- 1 call POST http:\/\/127\.0\.0\.1:\d+ \(0 logged\), while serving POST \/sdk\/api\/1\.0\/records\n[\s\S]*createEndSystemClient\(\{ baseUrl, signal, log \}\)/,
  },
  {
    check: 'secrets.no-leak',
    breaks: 'echoes the request body in error messages',
    target: async (request) => {
      const text = (await request.text?.()) ?? '';
      const response = await handle({ ...request, text: () => Promise.resolve(text) });
      if (response.status !== 400) return response;
      return json(400, { errors: { code: 'INVALID', message: `Bad body: ${text}` } });
    },
    message:
      /leaked in:\n {2}- the answer to POST \/sdk\/api\/1\.0\/initialize\/conformance-session \(400\)/,
  },
  {
    check: 'secrets.no-leak',
    breaks: 'URL-encodes the password into a 401 message',
    target: broken((request, response) =>
      isInitialize(request) && response.status === 401
        ? json(401, {
            errors: {
              code: 'AUTHENTICATION_FAILED',
              message: `login as alice:${encodeURIComponent('pass word!')} failed`,
            },
          })
        : undefined,
    ),
    message: /leaked in:\n {2}- the answer to POST/,
  },
  {
    check: 'secrets.no-leak-in-logs',
    breaks: 'logs Basic credentials',
    target: async (request) => {
      leakedLogs.push(
        JSON.stringify({
          msg: 'login',
          auth: `Basic ${Buffer.from('alice:wonderland').toString('base64')}`,
        }),
      );
      return handle(request);
    },
    logLines: () => leakedLogs,
    message: /leaked in:\n {2}- log line 1: \{"msg":"login","auth":"Basic \*\*\*"\}\n/,
  },
];

describe('each conformance check catches the connector it guards against', () => {
  it.each(cases)('$check: a connector that $breaks', async (testCase) => {
    const config = testCase.breaks.includes('URL-encodes')
      ? recordsConfig(fake.url, 'pass word!')
      : recordsConfig(fake.url);
    const results = await runConformance(
      {
        target: testCase.target,
        config,
        invalidConfig: { ...recordsConfig(fake.url), url: 'not a url' },
        wrongCredentials: recordsConfig(
          fake.url,
          testCase.breaks.includes('URL-encodes') ? 'pass word!' : 'nope',
        ),
        operation: { method: 'POST', path: '/records', body: { title: 'conformance' } },
        ...(testCase.handlerOptions === undefined
          ? {}
          : { handlerOptions: testCase.handlerOptions }),
        ...(testCase.logLines === undefined ? {} : { logLines: testCase.logLines }),
        expireSession: () => fake.expireTokens(),
      },
      { only: [testCase.check] },
    );
    expect(results).toHaveLength(1);
    expect(results[0]?.status).toBe('failed');
    expect(results[0]?.message).toMatch(testCase.message);
    expect(results[0]?.message).not.toContain('wonderland');
  });

  it('covers every check with at least one broken connector', () => {
    const covered = new Set(cases.map((testCase) => testCase.check));
    // The platform.* checks need a connector that declares catalog operations: catalog-checks.test.ts breaks
    // one for each of them.
    expect(
      conformanceChecks
        .map((check) => check.id)
        .filter((id) => !covered.has(id) && !id.startsWith('platform.')),
    ).toEqual([]);
  });

  it('passes the correct connector on every check it runs', async () => {
    const results = await runConformance({
      target: recordsConnector,
      config: recordsConfig(fake.url),
      invalidConfig: { ...recordsConfig(fake.url), url: 'not a url' },
      wrongCredentials: recordsConfig(fake.url, 'nope'),
      operation: { method: 'POST', path: '/records', body: { title: 'conformance' } },
      expireSession: () => fake.expireTokens(),
    });
    expect(results.filter((result) => result.status !== 'passed')).toEqual(
      // It declares no platform operation from the catalog.
      [
        'platform.configuration-info',
        'platform.paging',
        'platform.history-order',
        'platform.parameters',
        'platform.uploads',
        'platform.expired-reads',
        'platform.history-identity',
        'platform.entity-round-trip',
        'platform.search-round-trip',
        'platform.attachment-round-trip',
        'platform.history-polling',
        'platform.search-polling',
        'platform.own-change-identity',
        'platform.entity-types',
      ].map((id) => ({
        id,
        name: expect.any(String),
        status: 'skipped',
        message: expect.stringContaining('the connector declares'),
      })),
    );
    expect(results).toHaveLength(conformanceChecks.length);
  });
});

describe('the kit on connectors of other shapes', () => {
  it('passes a correct connector with no configuration and no session of its own', async () => {
    const bare = defineConnector({
      name: 'bare',
      version: '1.0.0',
      config: {},
      session: {},
      initialize: () => ({}),
      operations: ({ get }) => ({ ping: get('/ping', () => ({ pong: true })) }),
    });
    const results = await runConformance({ target: bare, config: {}, operation: { path: 'ping' } });
    expect(results.filter((result) => result.status === 'failed')).toEqual([]);
    expect(results.find((result) => result.id === 'session.missing')?.message).toBe(
      'the connector answers no session entries of its own',
    );
  });

  it('skips, saying why, the checks a connector answering an empty session gives nothing to judge', async () => {
    // A connector without the SDK whose end system needs no credential: no session entry, no secret.
    const sessionless: ConnectorHandler = async (request) =>
      isInitialize(request)
        ? json(200, [])
        : request.path.endsWith('/discover')
          ? json(200, { connectorName: 'sessionless', connectorVersion: '1' })
          : json(200, {});
    const results = await runConformance(
      { target: sessionless, config: { url: 'https://example.com' } },
      { only: ['session.tampered', 'secrets.no-leak', 'secrets.no-leak-in-logs'] },
    );
    expect(results).toEqual([
      {
        id: 'session.tampered',
        name: expect.any(String),
        status: 'skipped',
        message: 'initialize answered no session entry to change',
      },
      {
        id: 'secrets.no-leak',
        name: expect.any(String),
        status: 'skipped',
        message:
          'neither the configurations nor the session hold a sensitive value, so there is nothing that could leak: mark secrets sensitive in config',
      },
      {
        id: 'secrets.no-leak-in-logs',
        name: expect.any(String),
        status: 'skipped',
        message: expect.stringContaining("the connector's log lines are not visible here"),
      },
    ]);
  });

  it('takes the operation path with or without its leading slash', async () => {
    const results = await runConformance(
      {
        target: recordsConnector,
        config: recordsConfig(fake.url),
        operation: { path: 'records' },
      },
      { only: ['session.missing', 'session.wrong-credential', 'operation'] },
    );
    expect(results.map((result) => result.status)).toEqual(['passed', 'passed', 'passed']);
  });
});

describe('the kit when every initialize fails', () => {
  it('blames the configuration, not suppressNotification', async () => {
    const [result] = await runConformance(
      {
        target: createHandler(recordsConnector, { egress: LOOPBACK_EGRESS }),
        config: recordsConfig(fake.url, 'not the password'),
      },
      { only: ['initialize.suppress-notification'] },
    );
    expect(result?.status).toBe('failed');
    expect(result?.message).toContain(
      'Initialize fails without suppressNotification too (401 AUTHENTICATION_FAILED): check that the configuration in the test reaches a working end system.',
    );
    expect(result?.message).not.toContain('do not declare it as a field');
  });
});
