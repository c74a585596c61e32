// The errors guide lists every code the SDK can answer, each with the status ERROR_STATUS gives it.
import { readFileSync } from 'node:fs';
import { ERROR_STATUS } from '@connector-sdk/core';
import { expect, it } from 'vitest';

const guide = readFileSync(
  new URL('../errors-sessions-secrets.md', import.meta.url),
  'utf8',
);

it.each(Object.entries(ERROR_STATUS))(
  'errors-sessions-secrets.md lists %s with %i',
  (code, status) => {
    const rows = guide
      .split('\n')
      .filter((line) => line.startsWith('|') && line.includes(`\`${code}\``))
      .map((line) => line.split('|').map((cell) => cell.trim()));
    expect(rows.length, `no table row names ${code}`).toBeGreaterThan(0);
    const statuses = rows.flatMap((cells) =>
      cells.filter((cell) => /^\d{3}(\/\d{3})*$/.test(cell)),
    );
    expect(
      statuses.some((cell) => cell.split('/').includes(String(status))),
      statuses.join(),
    ).toBe(true);
  },
);
