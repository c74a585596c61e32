import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The scaffolder cannot go on: a bad name, a template that does not exist, or a directory that is in the way. */
export class ScaffoldError extends Error {
  override readonly name = 'ScaffoldError';
}

/**
 * The SDK repository this scaffolder runs from (its build or its source), or undefined when it was installed
 * from a registry or a tarball.
 *
 * @internal
 */
export function repositoryRoot(): string | undefined {
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  return existsSync(join(root, 'pnpm-workspace.yaml')) &&
    existsSync(join(root, 'packages', 'create-connector', 'package.json'))
    ? root
    : undefined;
}

/**
 * Where the SDK's packed packages are for a new project, before the SDK is on npm: the `packs` directory the
 * caller named; with `false`, nowhere (the registry); by default the repository's `.packs/` (`pnpm pack:local`)
 * when the scaffolder runs from the SDK's repository, else nowhere.
 *
 * @param packs - what the caller asked for
 * @param root - the SDK repository the scaffolder runs from, if any
 * @throws {@link ScaffoldError} when the scaffolder runs from the repository and nothing was packed yet
 * @internal
 */
export function packsDirectory(
  packs: string | false | undefined,
  root: string | undefined,
): string | undefined {
  if (packs === false) return undefined;
  if (packs !== undefined) return resolve(packs);
  if (root === undefined) return undefined;
  const local = join(root, '.packs');
  if (!existsSync(local))
    throw new ScaffoldError(
      `the SDK is not on npm yet, and ${local} holds no packed packages: run pnpm build && pnpm pack:local in ${root} first`,
    );
  return local;
}

/**
 * The packed tarball of each package, newest first when there are several versions.
 *
 * @param packs - the directory the tarballs are in
 * @param names - the packages, such as `@connector-sdk/core`
 * @throws {@link ScaffoldError} naming every package that has no tarball there
 * @internal
 */
export function packedTarballs(packs: string, names: readonly string[]): string[] {
  const files = existsSync(packs) ? readdirSync(packs) : [];
  const missing: string[] = [];
  const found = names.map((name) => {
    const stem = name.replace(/^@/, '').replace('/', '-');
    const pattern = new RegExp(`^${stem}-\\d+\\.\\d+\\.\\d+[^/]*\\.tgz$`);
    const newest = files
      .filter((file) => pattern.test(file))
      .map((file) => join(packs, file))
      .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
    if (newest === undefined) missing.push(name);
    return newest ?? '';
  });
  if (missing.length > 0)
    throw new ScaffoldError(
      `${packs} has no packed ${missing.join(', ')}: run pnpm build && pnpm pack:local in the SDK's repository`,
    );
  return found;
}

/** A path as a shell word. @internal */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
