import { fileURLToPath } from 'node:url';
import { readCassetteFile } from '../cassette-file.js';
import { findCassetteLeaks } from './find-cassette-leaks.js';

/**
 * Searches a cassette file for secrets, as its recording did before writing it: every credential header, and
 * every credential-named JSON field, form field and query parameter (of a URL or a `Location`) whatever its
 * case and separators, must hold placeholders only, and no form of any given secret may appear. Meant
 * for a test that scans every committed cassette.
 *
 * @param path - the cassette file
 * @param secrets - secrets to look for besides credentials found by their names @default []
 * @returns where each leak is (test, exchange, header or field), never what leaked; empty when clean
 * @throws Error when the file does not exist or is not a cassette
 * @example
 * ```ts
 * for (const file of await glob('test/cassettes/*.json'))
 *   expect(await scanCassette(file), file).toEqual([]);
 * ```
 */
export async function scanCassette(
  path: string | URL,
  secrets: readonly string[] = [],
): Promise<string[]> {
  const file = typeof path === 'string' ? path : fileURLToPath(path);
  const cassette = await readCassetteFile(file);
  if (cassette === undefined) throw new Error(`No cassette at ${file}`);
  return findCassetteLeaks(cassette, secrets);
}
