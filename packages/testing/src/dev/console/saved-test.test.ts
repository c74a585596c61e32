import { describe, expect, it } from 'vitest';
import { placeholderFor, savedTestSource, type SaveTarget } from './saved-test.js';
import { callStep, transcriptChanges, type ConsoleEntry } from './scenario.js';

// What a save writes, and the steps it writes them from: the parts a person's input reaches.

const target: SaveTarget = {
  directory: '/project/test/console',
  connectorModule: '/project/src/connector.mts',
  exportName: 'notes',
  egressAllow: ['127.0.0.1'],
};

describe('a saved test', () => {
  it('writes an upload’s file name as it is, `$&` and all', () => {
    const source = savedTestSource(target, 'upload', {
      config: [{ key: 'url', value: 'http://127.0.0.1:1', sensitive: false }],
      steps: [
        {
          step: {
            kind: 'call',
            operation: 'upload',
            method: 'POST',
            path: '/files',
            query: {},
            upload: {
              fileName: "a$&b$'c",
              contentType: 'text/plain',
              base64: 'aGk=',
              fields: {},
              part: 'file',
            },
          },
          status: 200,
        },
      ],
    });
    expect(source).toContain(`upload('a$&b$\\'c', 'text/plain', 'aGk=', {}, 'file')`);
    expect(source).not.toContain('upload-body-goes-here');
  });

  it('imports the connector by its compiled name, .mts as .mjs', () => {
    const source = savedTestSource(target, 'x', { config: [], steps: [] });
    expect(source).toContain(`import { notes as connector } from '../../src/connector.mjs';`);
  });

  it('writes a sensitive value as the placeholder it is given, marked sensitive', () => {
    const source = savedTestSource(target, 'x', {
      config: [{ key: 'password', value: 'replayed-password', sensitive: true }],
      steps: [],
    });
    expect(source).toContain(`password: { value: 'replayed-password', sensitive: true }`);
  });
});

describe('a placeholder for a secret', () => {
  const any = () => true;
  it('is a name, when the field takes it', () => {
    expect(placeholderFor('password', 'wonderland', any)).toBe('replayed-password');
  });
  it('keeps a JSON field’s shape, every text replaced', () => {
    const json = (candidate: string) => candidate.startsWith('{');
    expect(placeholderFor('options', '{"key":"s3cret","n":2}', json)).toBe(
      '{"key":"replayed-options-1","n":2}',
    );
  });
  it('keeps a patterned secret’s shape', () => {
    const pattern = (candidate: string) => /^[A-Z]{2}-\d{4}$/.test(candidate);
    expect(placeholderFor('key', 'AB-1234', pattern)).toBe('XX-7777');
  });
  it('is none when the field takes nothing but the secret', () => {
    expect(
      placeholderFor('key', 'only-this', (candidate) => candidate === 'only-this'),
    ).toBeUndefined();
  });
});

describe('a step from the console’s form', () => {
  const operation = { name: 'getNote', method: 'GET', path: '/notes/:id' };
  it('sends a dot segment as a value, never as another route', () => {
    expect(callStep(operation, { operation: 'getNote', params: { id: '..' } }).path).toBe(
      '/notes/%2E%2E',
    );
    expect(callStep(operation, { operation: 'getNote', params: { id: 'a/b c' } }).path).toBe(
      '/notes/a%2Fb%20c',
    );
  });
  it('reads a parameter the form sent, never one of an object’s own members', () => {
    const routed = { name: 'x', method: 'GET', path: '/x/:constructor' };
    expect(() => callStep(routed, { operation: 'x', params: {} })).toThrow(/constructor is empty/);
  });
});

describe('what changed between two runs', () => {
  const entry = (body: string): ConsoleEntry => ({
    type: 'exchange',
    step: 'call',
    request: { method: 'GET', url: '/sdk/api/1.0/notes', headers: {} },
    response: { status: 200, headers: {}, body },
    durationMs: 1,
    problems: [],
    endSystem: [],
  });
  it('shows a line that moved or came twice, not only lines that are new', () => {
    const before = [
      {
        ...entry('a'),
        endSystem: [{ method: 'GET', url: 'http://x/1', status: 200, attempt: 0, ms: 1 }],
      },
    ];
    const after = [
      {
        ...entry('a'),
        endSystem: [
          { method: 'GET', url: 'http://x/1', status: 200, attempt: 0, ms: 1 },
          { method: 'GET', url: 'http://x/1', status: 200, attempt: 0, ms: 1 },
        ],
      },
    ];
    expect(transcriptChanges(before, after)).toEqual([
      '~ exchange 1: GET /sdk/api/1.0/notes',
      '+   ↳ GET http://x/1 200',
    ]);
    expect(transcriptChanges([entry('a')], [entry('a')])).toEqual([]);
  });
});
