import { ParameterListSchema, z } from '@connector-sdk/core';
import type { ConfigInput } from '../simulator/platform-simulator.js';
import { readJsonFile } from './read-json-file.js';
import { UsageError } from './usage-error.js';

const ConfigRecordSchema = z.record(
  z.string(),
  z.union([z.string(), z.strictObject({ value: z.string(), sensitive: z.boolean() })]),
);

/**
 * Reads a configuration file: a JSON list of `{ key, value, sensitive }` entries, or an object of values
 * (`"key": "value"` or `"key": { "value": "…", "sensitive": true }`).
 *
 * @param path - the file
 * @returns the configuration
 * @throws {@link UsageError} naming the file and what is wrong, never its values
 */
export async function readConfigFile(path: string): Promise<ConfigInput> {
  const json = await readJsonFile(path);
  const list = ParameterListSchema.safeParse(json);
  if (list.success) return list.data;
  const record = ConfigRecordSchema.safeParse(json);
  if (record.success) return record.data;
  throw new UsageError(
    `${path} must hold a list of { "key", "value", "sensitive" } entries or an object of values`,
  );
}
