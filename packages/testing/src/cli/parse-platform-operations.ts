import type { PlatformOperationName } from '@connector-sdk/core';
import {
  listedOperations,
  type PlatformOperationList,
} from '../conformance/declared-operations.js';
import { UsageError } from './usage-error.js';

/**
 * Reads `--platform-operations`: catalog names separated by commas, each followed by `=<path>` when the
 * connector serves it off the catalog's path (`projects,entityHistory=/entities/:entityTypeId/revisions`).
 * The flag may be repeated; the lists add up.
 *
 * @param values - each occurrence of the flag
 * @returns the `platform` options that list them
 * @throws {@link UsageError} naming an unknown operation or a path that does not fit it
 */
export function parsePlatformOperations(values: readonly string[]): PlatformOperationList {
  const operations: PlatformOperationName[] = [];
  const paths: Partial<Record<PlatformOperationName, string>> = {};
  for (const item of values.flatMap((value) => value.split(','))) {
    const text = item.trim();
    if (text === '') continue;
    const mark = text.indexOf('=');
    const name = (mark === -1 ? text : text.slice(0, mark).trim()) as PlatformOperationName;
    operations.push(name);
    if (mark !== -1) paths[name] = text.slice(mark + 1).trim();
  }
  const list = { operations, paths };
  try {
    listedOperations(list);
  } catch (error) {
    // The kit's own wording, with the CLI's name for the option.
    throw new UsageError(
      (error as Error).message.replace(/platform\.(operations|paths)/g, '--platform-operations'),
    );
  }
  return list;
}
