// The one rule for request targets (ARCHITECTURE.md, D3), judged by core on the target a binding hands over.
import { describe, expect, it } from 'vitest';
import { createHandler, defineConnector } from '../../index.js';
import { originForm } from './path-rule.js';

const handle = createHandler(
  defineConnector({ name: 'c', version: '1', config: {}, session: {}, initialize: () => ({}) }),
);

async function answer(target: string | undefined, path: string, host?: string) {
  const response = await handle({
    method: 'GET',
    path,
    target,
    headers: host === undefined ? {} : { host },
  });
  return {
    status: response.status,
    code: response.status === 200 ? undefined : JSON.parse(response.body).errors.code,
  };
}

describe('the request target rule', () => {
  it.each([
    ['an origin-form target', '/sdk/api/1.0/discover'],
    ['an origin-form target with a query', '/sdk/api/1.0/discover?x=a%2Fb&y=a\\b'],
    ['an absolute-form target naming the Host', 'http://a.example/sdk/api/1.0/discover'],
    ['an absolute https target in capitals', 'HTTPS://A.EXAMPLE/sdk/api/1.0/discover'],
  ])('serves %s', async (_kind, target) => {
    expect(await answer(target, '/sdk/api/1.0/discover', 'a.example')).toEqual({
      status: 200,
      code: undefined,
    });
  });

  it.each([
    ['a fragment', '/sdk/api/1.0/discover#x'],
    ['a fragment after the query', '/sdk/api/1.0/discover?x=1#x'],
    ['a backslash', '/sdk/api/1.0/discover\\'],
    ['a dot segment', '/sdk/api/1.0/x/../discover'],
    ['an encoded slash', '/sdk/api/1.0/a%2fb'],
    ['an asterisk form', '*'],
    ['an authority form', 'a.example:443'],
    ['an absolute form naming another host', 'http://b.example/sdk/api/1.0/discover'],
    ['an absolute form naming another port', 'http://a.example:80/sdk/api/1.0/discover'],
    ['an absolute form with user info', 'http://u@a.example/sdk/api/1.0/discover'],
    ['an absolute form of another scheme', 'ftp://a.example/sdk/api/1.0/discover'],
    ['an absolute form with a fragment', 'http://a.example/sdk/api/1.0/discover#x'],
    ['an absolute form with a dot segment', 'http://a.example/sdk/api/1.0/x/../discover'],
  ])('refuses %s (400 INVALID_PATH)', async (_kind, target) => {
    expect(await answer(target, '/sdk/api/1.0/discover', 'a.example')).toEqual({
      status: 400,
      code: 'INVALID_PATH',
    });
  });

  it('refuses an absolute form when the request has no Host header', async () => {
    expect(await answer('http://a.example/sdk/api/1.0/discover', '/sdk/api/1.0/discover')).toEqual({
      status: 400,
      code: 'INVALID_PATH',
    });
  });

  it('judges a rewritten path too, besides the target as sent', async () => {
    expect(await answer('/acme/sdk/api/1.0/discover', '/sdk/api/1.0/discover', 'a')).toEqual({
      status: 200,
      code: undefined,
    });
    expect(await answer('/acme/sdk/api/1.0/discover', '/sdk/api/1.0/x/../discover', 'a')).toEqual({
      status: 400,
      code: 'INVALID_PATH',
    });
  });

  it('judges the path alone, fragment included, when no target is handed over', async () => {
    expect(await answer(undefined, '/sdk/api/1.0/discover#x')).toEqual({
      status: 400,
      code: 'INVALID_PATH',
    });
    expect(await answer(undefined, '/sdk/api/1.0/discover')).toEqual({
      status: 200,
      code: undefined,
    });
  });
});

describe('originForm', () => {
  it.each([
    ['/a?b', '/a?b'],
    ['http://h/a?b', '/a?b'],
    ['http://h', '/'],
    ['http://h?x=1', '/?x=1'],
    ['HTTP://H:8080/a', '/a'],
  ])('reads %s from its path on as %s', (target, origin) => {
    expect(originForm(target)).toBe(origin);
  });
});
