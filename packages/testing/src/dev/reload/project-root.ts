import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The folder of the nearest package.json above a file: the project whose sources reload.
 *
 * @internal
 */
export function projectRoot(file: string): string {
  for (let folder = dirname(file); ; folder = dirname(folder)) {
    if (existsSync(join(folder, 'package.json'))) return folder;
    if (dirname(folder) === folder) return dirname(file);
  }
}
