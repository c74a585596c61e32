// Whoever initializes chooses the end system's URL, so the answer to a refused or unresolvable host must not
// map the operator's network for them: a name that does not resolve, one that resolves to loopback and one that
// resolves to a private address are answered alike (same status, code, wording and number of attempts), and a
// refused address is answered alike whatever kind it is. The precise reason is the operator's: it goes to the
// connector's log. Over real HTTP on the node binding, with the default egress policy.
import { ErrorBodySchema, type ParameterEntry } from '@connector-sdk/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type ConnectorServer } from '@connector-sdk/node';
import { watchAttempts } from '../support/attempts.js';
import { startEndSystem, type EndSystem } from '../support/end-system.js';
import { lineLogger } from '../support/line-logger.js';
import { postInitialize } from '../support/platform-calls.js';
import { loginConnector, raw, url } from './login-connector.js';

/** The connector's log: the operator's view. */
const logger = lineLogger();
const logged = logger.lines;

let end: EndSystem;
let port = 0;
const seen: string[] = [];
let running: ConnectorServer;

beforeAll(async () => {
  end = await startEndSystem((request, response) => {
    seen.push(request.url ?? '');
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{}');
  });
  port = end.port;
  running = await serve(loginConnector(), { port: 0, logger });
});
afterAll(async () => {
  await running.close();
  await end.close();
});

/** Initializes with one entry; answers the status, the error body and the attempts the client made. */
async function initialize(entry: ParameterEntry) {
  const attempts = watchAttempts();
  try {
    const response = await postInitialize(running.url, [entry]);
    const { errors } = ErrorBodySchema.parse(await response.json());
    return { status: response.status, errors, attempts: attempts.seen };
  } finally {
    attempts.stop();
  }
}

/** An answer with the host or address the caller sent (and the port) replaced, to compare the rest. */
function shape(answer: Awaited<ReturnType<typeof initialize>>, host: string) {
  const plain = (text: string | undefined) =>
    text?.replaceAll(`${host}:${port}`, 'HOST').replaceAll(host, 'HOST');
  return {
    status: answer.status,
    code: answer.errors.code,
    message: plain(answer.errors.message),
    detail: plain(answer.errors.detail),
    attempts: answer.attempts,
  };
}

/** Words that would tell a caller what the refused address is, or whether the name exists. */
const TELLING =
  /loopback|private|link-local|metadata|multicast|reserved|resolve|ENOTFOUND|getaddrinfo/i;

describe('the answer to a host the connector does not reach', () => {
  it('is the same for a name that does not resolve and a name that resolves to loopback, and says what to check', async () => {
    logged.length = 0;
    seen.length = 0;
    const missing = await initialize(raw(`http://no-such-host.invalid:${port}/`));
    const loopback = await initialize(raw(`http://localhost:${port}/`));
    expect(shape(missing, 'no-such-host.invalid')).toEqual(shape(loopback, 'localhost'));
    expect(missing.status).toBe(502);
    expect(missing.errors.message).toContain('no-such-host.invalid');
    expect(missing.errors.message).toMatch(/check/i);
    // The same guidance whichever case it is: a typo and a private end system are both fixed by it.
    expect(missing.errors.message).toMatch(/private network .*operator allows it$/);
    expect(missing.errors.message).not.toMatch(/loopback|resolves|ENOTFOUND|getaddrinfo/i);
    expect(missing.errors.detail ?? '').not.toMatch(TELLING);
    expect(seen).toEqual([]);
    // The operator's log keeps which case it was, and why.
    const log = logged.join('\n');
    expect(log).toContain('ENOTFOUND');
    expect(log).toContain('a loopback address');
    expect(log).toMatch(/"address":"(127\.0\.0\.1|::1)"/);
  });

  it('is the same for every kind of refused address in a URL, and the log says which kind', async () => {
    logged.length = 0;
    const answers = [
      ['127.0.0.1', await initialize(raw(`http://127.0.0.1:${port}/`))],
      ['10.1.2.3', await initialize(raw('http://10.1.2.3/'))],
      ['169.254.169.254', await initialize(raw('http://169.254.169.254/'))],
    ] as const;
    const [first, ...rest] = answers.map(([host, answer]) => shape(answer, host));
    for (const other of rest) expect(other).toEqual(first);
    expect(first?.status).toBe(502);
    for (const [, answer] of answers) expect(answer.errors.message).not.toMatch(TELLING);
    const log = logged.join('\n');
    expect(log).toContain('a loopback address');
    expect(log).toContain('a private address');
    expect(log).toContain('a link-local or cloud-metadata address');
  });

  it('is the same at initialize for every kind of refused address in a URL field', async () => {
    const answers = [
      ['127.0.0.1', await initialize(url('http://127.0.0.1/'))],
      ['10.1.2.3', await initialize(url('http://10.1.2.3/'))],
      ['169.254.169.254', await initialize(url('http://169.254.169.254/'))],
      ['localhost', await initialize(url('http://localhost/'))],
    ] as const;
    const shapes = answers.map(([host, answer]) => shape(answer, host));
    for (const other of shapes) expect(other).toEqual({ ...shapes[0], message: other.message });
    expect(new Set(shapes.map((one) => one.message?.replace(/host|address/, 'X'))).size).toBe(1);
    expect(shapes[0]?.status).toBe(400);
    for (const [, answer] of answers) expect(answer.errors.message).not.toMatch(TELLING);
  });
});
