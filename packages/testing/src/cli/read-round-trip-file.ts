import { z } from '@connector-sdk/core';
import type { RoundTripOptions } from '../conformance/round-trips/round-trip-options.js';
import { readJsonFile } from './read-json-file.js';
import { UsageError } from './usage-error.js';

const RoundTripSchema = z.strictObject({
  create: z.record(z.string(), z.unknown()),
  update: z.record(z.string(), z.unknown()),
  idField: z.string().min(1).optional(),
  deletionType: z.literal(['SOFT_DELETE', 'ARCHIVE']).optional(),
  search: z
    .strictObject({
      idField: z.string().min(1).optional(),
      updatedField: z.string().min(1).optional(),
    })
    .optional(),
});

/**
 * Reads the file of `--round-trip`: what the round-trip checks may write, as `platform.roundTrip` takes it.
 *
 * @param path - the file
 * @returns the round trip's options
 * @throws {@link UsageError} naming the file and what is wrong, never its values
 */
export async function readRoundTripFile(path: string): Promise<RoundTripOptions> {
  const json = await readJsonFile(path);
  const parsed = RoundTripSchema.safeParse(json);
  if (parsed.success) return parsed.data as RoundTripOptions;
  throw new UsageError(
    `${path} must hold { "create": { fields }, "update": { fields } }, with "idField", "deletionType" ("SOFT_DELETE" or "ARCHIVE") and "search" ({ "idField", "updatedField" }) if needed (${parsed.error.issues
      .slice(0, 3)
      .map((issue) => `'${issue.path.join('.') || 'the file'}': ${issue.message}`)
      .join('; ')})`,
  );
}
