// What `send` hands the call's client: only what the declaration and the request add. Each option given to a
// client costs ky merges of the client's defaults on every call (bound-client.ts), so a request with nothing
// but its method must reach ky without options. The client here records what it is handed; the requests it
// would send are proven against a real end system in rest-entities.test.ts and its neighbours.
import { describe, expect, it } from 'vitest';
import type { EndSystemClient } from '../../http/index.js';
import type { RestCall } from '../declaration/request-spec.js';
import { expandPath, send } from './endpoint.js';

interface Handed {
  readonly via: string;
  readonly path: unknown;
  readonly options: Record<string, unknown> | undefined;
}

/** A call whose client records each request it is handed, and how. */
function recordingCall(): { call: RestCall<Record<string, string>>; handed: Handed[] } {
  const handed: Handed[] = [];
  const answer = () => Promise.resolve(new Response('{}'));
  const record = (via: string) => (path: unknown, options?: Record<string, unknown>) => {
    handed.push({ via, path, options });
    return answer();
  };
  const api = Object.assign(record('call'), {
    get: record('get'),
    post: record('post'),
    put: record('put'),
    patch: record('patch'),
    delete: record('delete'),
  });
  const call = {
    session: {},
    api: api as unknown as EndSystemClient,
    baseUrl: 'https://acme.example/api/',
    ids: { entityTypeId: 'issue', projectId: null, id: 'I 1' },
  } as unknown as RestCall<Record<string, string>>;
  return { call, handed };
}

describe('send', () => {
  it('hands a request with nothing but its method to its shortcut, without options', async () => {
    const { call, handed } = recordingCall();
    await send(call, { path: 'issues/{id}' }, { method: 'GET' });
    await send(call, { path: 'issues/{id}', method: 'DELETE' }, { method: 'GET' });
    expect(handed).toEqual([
      { via: 'get', path: 'issues/I%201', options: undefined },
      { via: 'delete', path: 'issues/I%201', options: undefined },
    ]);
  });

  it('hands a method the types do not know (from JavaScript) to ky as it is', async () => {
    const { call, handed } = recordingCall();
    await send(call, { path: 'issues', method: 'get' as never }, { method: 'GET' });
    expect(handed).toEqual([{ via: 'call', path: 'issues', options: { method: 'get' } }]);
  });

  it('hands no query when every declared parameter is undefined, and the defined ones as text', async () => {
    const { call, handed } = recordingCall();
    await send(call, { path: 'issues', query: { q: undefined } }, { method: 'GET' });
    await send(
      call,
      { path: 'issues', query: () => ({ limit: 10, open: true, q: undefined }) },
      { method: 'GET', query: { page: 2 } },
    );
    expect(handed[0]).toEqual({ via: 'get', path: 'issues', options: undefined });
    expect(handed[1]?.via).toBe('call');
    const searchParams = handed[1]?.options?.searchParams;
    expect(searchParams).toBeInstanceOf(URLSearchParams);
    expect(String(searchParams)).toBe('limit=10&open=true&page=2');
    expect(handed[1]?.options).not.toHaveProperty('headers');
  });

  it('hands headers only when the declaration or the request has some, the request’s winning', async () => {
    const { call, handed } = recordingCall();
    await send(call, { path: 'issues', headers: {} }, { method: 'POST', json: { a: 1 } });
    await send(
      call,
      { path: 'issues', headers: () => ({ Prefer: 'return=minimal', 'X-Mode': 'declared' }) },
      { method: 'POST', json: { a: 1 }, headers: { 'X-Mode': 'sent' } },
    );
    expect(handed[0]).toEqual({
      via: 'call',
      path: 'issues',
      options: { method: 'POST', json: { a: 1 } },
    });
    expect(handed[1]?.options).toEqual({
      method: 'POST',
      json: { a: 1 },
      headers: { Prefer: 'return=minimal', 'X-Mode': 'sent' },
    });
  });

  it('puts the request’s own ids in the path, and a path the end system named as it is', async () => {
    const { call, handed } = recordingCall();
    await send(
      call,
      { path: 'issues/{id}/attachments/{attachmentId}' },
      { method: 'DELETE', extraIds: { attachmentId: 'a/b' } },
    );
    await send(
      call,
      { path: 'issues', query: { limit: 5 } },
      { method: 'GET', path: 'issues?cursor=x' },
    );
    expect(handed).toEqual([
      { via: 'delete', path: 'issues/I%201/attachments/a%2Fb', options: undefined },
      // The next page carries its own query: the declared one is not added.
      { via: 'get', path: 'issues?cursor=x', options: undefined },
    ]);
  });
});

describe('expandPath', () => {
  const ids = { entityTypeId: 'issue', projectId: 'ACME', id: '42' };

  it('puts each id where its placeholder is, encoded, and leaves any other text as it is', () => {
    expect(expandPath('issues', ids)).toBe('issues');
    expect(expandPath('issues/{id}', ids)).toBe('issues/42');
    expect(expandPath('{projectId}/{entityTypeId}s/{id}/{id}', ids)).toBe('ACME/issues/42/42');
    expect(expandPath('a/{id}/b{other}/{ attachmentId }', ids)).toBe(
      'a/42/b{other}/{ attachmentId }',
    );
    expect(expandPath('files/{attachmentId}', { ...ids, attachmentId: 'a b/c?d#e%' })).toBe(
      'files/a%20b%2Fc%3Fd%23e%25',
    );
    expect(expandPath('{id}', { ...ids, id: 'über' })).toBe('%C3%BCber');
  });

  it('refuses an id the path needs that is missing, empty, or a step out of the path', () => {
    expect(() => expandPath('issues/{id}', { entityTypeId: 'issue', projectId: 'ACME' })).toThrow(
      "'id' is required here",
    );
    expect(() => expandPath('p/{projectId}', { ...ids, projectId: null })).toThrow(
      "'projectId' is required here",
    );
    expect(() => expandPath('issues/{id}', { ...ids, id: '' })).toThrow("'id' is required here");
    for (const id of ['.', '..'])
      expect(() => expandPath('issues/{id}', { ...ids, id })).toThrow("'id' is not an id");
    // An id the template does not name is not needed.
    expect(expandPath('projects', { entityTypeId: 'issue', projectId: null })).toBe('projects');
  });

  it('stays right past the templates it remembers, a template made anew for every call included', () => {
    for (let n = 0; n < 600; n++)
      expect(expandPath(`p${n}/{id}/q${n}`, { ...ids, id: `i${n}` })).toBe(`p${n}/i${n}/q${n}`);
    expect(expandPath('issues/{id}', ids)).toBe('issues/42');
  });
});
