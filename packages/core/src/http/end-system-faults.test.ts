import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHandler, defineConnector, field, secret } from '../index.js';
import { expectContractResponse } from '../../test/hostile-input.js';
import { initializeSession } from '../../test/sessions.js';
import { createEndSystemClient } from './index.js';
import { TEST_EGRESS } from './fixtures/client-harness.js';

// The end system behind the connector misbehaving at the TCP level: each test scripts what a raw socket
// answers to one HTTP request, and checks the platform's answer (docs/end-system-client.md).
//
// Nothing here measures time. An end system that answers at once is called with timeouts no loaded machine
// reaches, so its answer cannot turn into a timeout; one that never finishes answering is called with short
// ones, and the call ending at all shows the deadline at work, however slow the machine.
interface Timing {
  readonly timeoutMs: number;
  readonly deadlineMs: number;
}
const PATIENT: Timing = { timeoutMs: 60_000, deadlineMs: 120_000 };
const SHORT: Timing = { timeoutMs: 300, deadlineMs: 1_500 };
let timing = PATIENT;

type Fault = (socket: Socket, request: string) => void;
let fault: Fault = (socket) => socket.end(ok('{"ok":true}'));
let faultsInjected = 0;

function ok(body: string, type = 'application/json', status = '200 OK'): string {
  return `HTTP/1.1 ${status}\r\ncontent-type: ${type}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;
}

const sockets = new Set<Socket>();
const end: Server = createServer((socket) => {
  sockets.add(socket);
  socket.on('close', () => sockets.delete(socket));
  socket.on('error', () => undefined);
  let head = '';
  socket.on('data', (chunk) => {
    head += chunk.toString('latin1');
    if (head.includes('\r\n\r\n')) {
      faultsInjected++;
      fault(socket, head);
      head = '';
    }
  });
});
let endUrl = '';

const connector = defineConnector({
  name: 'faults',
  version: '1.0.0',
  config: {},
  session: { Authorization: field.secret() },
  initialize: () => ({ Authorization: secret('Bearer t0ken-abc') }),
  operations: ({ get }) => ({
    item: get('/item', ({ session, signal, log }) =>
      createEndSystemClient({
        baseUrl: endUrl,
        headers: { Authorization: session.Authorization },
        timeoutMs: timing.timeoutMs,
        deadlineMs: timing.deadlineMs,
        retry: { limit: 2, maxDelayMs: 20 },
        signal,
        log,
      })
        .get('item')
        .json(),
    ),
  }),
});
const handle = createHandler(connector, { egress: TEST_EGRESS });

async function call() {
  const headers = await initializeSession(handle);
  const response = await handle({ method: 'GET', path: '/sdk/api/1.0/item', headers });
  expectContractResponse(response, [200, 400, 401, 403, 404, 502, 504]);
  const { errors } = JSON.parse(response.body) as { errors?: { code: string } };
  return { status: response.status, code: errors?.code };
}

beforeAll(async () => {
  await new Promise<void>((resolve) => end.listen(0, '127.0.0.1', resolve));
  endUrl = `http://127.0.0.1:${(end.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => end.close(() => resolve()));
});
afterEach(async () => {
  // Whatever the last fault was, the connector keeps serving.
  timing = PATIENT;
  fault = (socket) => socket.end(ok('{"ok":true}'));
  expect(await call()).toMatchObject({ status: 200 });
});

describe('end-system faults through the end-system client', () => {
  it.each<[string, Fault]>([
    ['no answer at all', () => undefined],
    [
      'headers, then a body dripping a byte at a time, never to end',
      (socket) => {
        socket.write(
          'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 1000000000\r\n\r\n',
        );
        const timer = setInterval(() => socket.write(' '), 50);
        socket.on('close', () => clearInterval(timer));
      },
    ],
  ])('%s: 504 END_SYSTEM_TIMEOUT once the deadline passes', async (_name, script) => {
    timing = SHORT;
    fault = script;
    expect(await call()).toMatchObject({ status: 504, code: 'END_SYSTEM_TIMEOUT' });
  });

  it.each<[string, Fault, number, string]>([
    [
      'a reset before any answer',
      (socket) => socket.resetAndDestroy(),
      502,
      'END_SYSTEM_UNREACHABLE',
    ],
    [
      'a reset in the middle of the body',
      (socket) => {
        socket.write(
          'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"a":',
        );
        setTimeout(() => socket.resetAndDestroy(), 20);
      },
      502,
      'END_SYSTEM_UNREACHABLE',
    ],
    [
      'a body cut short of its content-length',
      (socket) =>
        socket.end(
          'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"a":1',
        ),
      502,
      'END_SYSTEM_UNREACHABLE',
    ],
    [
      'garbage instead of HTTP',
      (socket) => socket.end('\x00\xffnot http\r\n\r\n'),
      502,
      'END_SYSTEM_UNREACHABLE',
    ],
    [
      'a 407, which fetch refuses to hand over',
      (socket) => socket.end(ok('{}', 'application/json', '407 Proxy Authentication Required')),
      502,
      'END_SYSTEM_UNREACHABLE',
    ],
    [
      'a status beyond 599',
      (socket) => socket.end(ok('{"code":"ODD"}', 'application/json', '999 Odd')),
      502,
      'ODD',
    ],
    [
      'a 1xx status as the final answer',
      (socket) => socket.end(ok('{}', 'application/json', '199 Odd')),
      502,
      'END_SYSTEM_UNREACHABLE',
    ],
    [
      'a 200 whose JSON is garbage',
      (socket) => socket.end(ok('{"a":1,,]')),
      502,
      'END_SYSTEM_ERROR',
    ],
    [
      'a 200 of invalid UTF-8',
      (socket) => {
        socket.write(
          'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 4\r\n\r\n',
        );
        socket.end(Buffer.from([0xff, 0xfe, 0x7b, 0x7d]));
      },
      502,
      'END_SYSTEM_ERROR',
    ],
    [
      'a 200 HTML page',
      (socket) => socket.end(ok('<html>login</html>', 'text/html')),
      502,
      'END_SYSTEM_ERROR',
    ],
    [
      'a 503 that never ends, as an HTML page',
      (socket) => socket.end(ok('<h1>down</h1>', 'text/html', '503 Service Unavailable')),
      502,
      'END_SYSTEM_ERROR',
    ],
    [
      'a 401 with a JSON content-type and a text body',
      (socket) => socket.end(ok('expired', 'application/json', '401 Unauthorized')),
      401,
      'SESSION_EXPIRED',
    ],
  ])('%s: the documented answer', async (_name, script, status, code) => {
    fault = script;
    expect(await call()).toMatchObject({ status, code });
  });

  it('answers 502 END_SYSTEM_UNREACHABLE when the connection is refused', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const live = endUrl;
    endUrl = `http://127.0.0.1:${port}`;
    try {
      expect(await call()).toMatchObject({ status: 502, code: 'END_SYSTEM_UNREACHABLE' });
    } finally {
      endUrl = live;
    }
  });

  it('rides out a short 503 burst by retrying, and answers 502 for a longer one', async () => {
    let hits = 0;
    const burst =
      (length: number): Fault =>
      (socket) => {
        hits++;
        socket.end(
          hits <= length ? ok('{}', 'application/json', '503 Unavailable') : ok('{"ok":1}'),
        );
      };
    fault = burst(2);
    expect(await call()).toMatchObject({ status: 200 });
    hits = 0;
    fault = burst(50);
    expect(await call()).toMatchObject({ status: 502, code: 'END_SYSTEM_ERROR' });
    expect(hits).toBe(3);
  });

  it('maps any status, body and content-type to the documented class, concurrently (property)', async () => {
    const expected = (status: number, retryAfter: boolean): number[] => {
      if (status < 300) return [200, 502];
      if (status === 401) return [401];
      if (status === 403) return [403];
      if (status === 404 || status === 410) return [404];
      if (status === 429 || (status === 503 && retryAfter)) return [403];
      if ([400, 409, 422].includes(status)) return [400];
      return [502];
    };
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          status: fc.oneof(
            fc.integer({ min: 200, max: 599 }),
            fc.constantFrom(401, 407, 429, 503, 600, 999),
          ),
          type: fc.constantFrom(
            'application/json',
            'text/html',
            'text/plain',
            '',
            'application/json; charset=latin1',
          ),
          body: fc.oneof(
            fc.json(),
            fc.string(),
            fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
          ),
          retryAfter: fc.boolean(),
        }),
        async (answer) => {
          const body = [204, 205, 304].includes(answer.status)
            ? Buffer.alloc(0)
            : Buffer.from(answer.body, 'latin1');
          const type = answer.type === '' ? '' : `content-type: ${answer.type}\r\n`;
          const wait = answer.retryAfter ? 'retry-after: 0\r\n' : '';
          const head = `HTTP/1.1 ${answer.status} X\r\n${type}${wait}content-length: ${body.length}\r\nconnection: close\r\n\r\n`;
          fault = (socket) => socket.end(Buffer.concat([Buffer.from(head, 'latin1'), body]));
          // Several platform calls at once, each with its own client, against the same answer.
          const results = await Promise.all(Array.from({ length: 4 }, () => call()));
          for (const result of results) {
            expect(expected(answer.status, answer.retryAfter)).toContain(result.status);
          }
        },
      ),
      { numRuns: Math.min(Number(process.env.FUZZ_RUNS ?? 60), 1_000) },
    );
  }, 60_000);
});

afterAll(() => {
  expect(faultsInjected).toBeGreaterThan(100);
});
