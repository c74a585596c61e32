// The troubleshooting guide has a section, with its status, for every code the SDK can answer.
import { readFileSync } from 'node:fs';
import { ERROR_STATUS } from '@connector-sdk/core';
import { expect, it } from 'vitest';

const guide = readFileSync(new URL('../troubleshooting.md', import.meta.url), 'utf8');
const headings = guide.split('\n').filter((line) => line.startsWith('### '));

it('has one section for each code of ERROR_STATUS, and none for a code it does not have', () => {
  const codes = headings.map((line) => /^### `([A-Z_]+)` \((\d{3})\)$/.exec(line)?.slice(1));
  expect(codes.every((code) => code !== undefined)).toBe(true);
  expect(Object.fromEntries(codes as [string, string][])).toEqual(
    Object.fromEntries(
      Object.entries(ERROR_STATUS).map(([code, status]) => [code, String(status)]),
    ),
  );
});
