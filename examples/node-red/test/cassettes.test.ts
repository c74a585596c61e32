import { readdirSync } from 'node:fs';
import { expect, it } from 'vitest';
import { scanCassette } from '@connector-sdk/testing';

// Every committed cassette is scanned: a credential header or field holding anything but placeholders fails,
// whoever wrote the file and however.
const dir = new URL('./cassettes/', import.meta.url);
const files = readdirSync(dir).filter((name) => name.endsWith('.json'));

it('has cassettes to scan', () => {
  expect(files.length).toBeGreaterThan(0);
});

it.each(files)('%s holds no secret', async (name) => {
  expect(await scanCassette(new URL(name, dir))).toEqual([]);
});
