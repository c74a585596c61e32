import { readFile } from 'node:fs/promises';
import { UsageError } from './usage-error.js';

/**
 * Reads a JSON file the CLI is given.
 *
 * @param path - the file
 * @returns what it holds, parsed
 * @throws {@link UsageError} naming the file when it cannot be read or is not JSON, never its content
 */
export async function readJsonFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(
      `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new UsageError(`${path} is not valid JSON`);
  }
}
