import { defineConnector, readWindow } from '@connector-sdk/core';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { describeConformance } from '../vitest.js';

// A check that passed with part of it not run says so in the run's output, as the CLI prints it on the check's
// line: Vitest's default reporter shows nothing else of a passing test.
const written: string[] = [];
let spy: { mockRestore(): void } | undefined;
beforeAll(() => {
  const write = process.stderr.write.bind(process.stderr);
  spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk, ...rest) => {
    written.push(String(chunk));
    return write(chunk, ...(rest as []));
  });
});
afterAll(() => spy?.mockRestore());

const oneProject = defineConnector({
  name: 'one-project',
  version: '1.0.0',
  config: {},
  session: {},
  initialize: () => ({}),
  operations: ({ platform }) => ({
    projects: platform.projects(({ query }) =>
      readWindow(query, { all: () => [{ id: 'P1', name: 'The only project' }] }),
    ),
  }),
});

describeConformance({ target: oneProject, config: {} }, 'a connector with one project');

it('says which check passed in part, and what it left out', () => {
  expect(written.join('')).toContain(
    'conformance: passed in part: a list answers exactly the window asked for, and 400 without startIndex or over the server-info maxResults (not run: the comparison of two windows (the connector lists 1 project; it needs 2))',
  );
});
