// On every binding over real HTTP (ARCHITECTURE.md, D9): production can narrow who may initialize. Outside
// `initializeFrom` is 403 SOURCE_NOT_ALLOWED (judged on the peer each binding hands over), and with an access
// key a missing or wrong `connectorAccessKey` entry is 401 AUTHENTICATION_FAILED; inside, with the key,
// initialize is answered as usual and the key never comes back.
import { afterAll, describe, expect, it } from 'vitest';
import { ErrorBodySchema } from '@connector-sdk/core';
import { bindings, type Running } from '../support/bindings.js';
import { configuration, connector } from '../support/fixture-connector.js';

const KEY = 'acc3ss-k3y-0f-the-deployment';

async function initialize(running: Running, extra: object[] = []) {
  const response = await fetch(`${running.origin}/sdk/api/1.0/initialize/s-1?systemId=sys-1`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify([...configuration, ...extra]),
  });
  const text = await response.text();
  const code = response.ok ? undefined : ErrorBodySchema.parse(JSON.parse(text)).errors.code;
  return { status: response.status, code, text, wait: response.headers.get('retry-after') };
}

describe.each(bindings)('$name: who may initialize', (binding) => {
  const servers: Running[] = [];
  const start = async (options: object) => {
    const running = await binding.start(connector, options);
    servers.push(running);
    return running;
  };
  afterAll(() => Promise.all(servers.map((running) => running.close())));

  it('refuses a peer outside initializeFrom with 403 SOURCE_NOT_ALLOWED and no wait header', async () => {
    const elsewhere = await start({ initializeFrom: ['10.0.0.0/8', 'fd00::/8'] });
    expect(await initialize(elsewhere)).toMatchObject({
      status: 403,
      code: 'SOURCE_NOT_ALLOWED',
      wait: null,
    });
    const here = await start({ initializeFrom: ['127.0.0.0/8', '::1'] });
    expect((await initialize(here)).status).toBe(200);
  });

  it('asks for the access key, and keeps it out of the answer', async () => {
    const guarded = await start({ accessKey: KEY });
    expect(await initialize(guarded)).toMatchObject({ status: 401, code: 'AUTHENTICATION_FAILED' });
    const wrong = [{ key: 'connectorAccessKey', value: `${KEY}!`, sensitive: true }];
    expect(await initialize(guarded, wrong)).toMatchObject({ status: 401 });
    const right = await initialize(guarded, [
      { key: 'connectorAccessKey', value: KEY, sensitive: true },
    ]);
    expect(right.status).toBe(200);
    expect(right.text).not.toContain(KEY);
  });
});
