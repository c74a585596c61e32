// The contract's parameter entries (`{ key, value, sensitive }`), both ways: checking one an initialize body
// holds (`entryProblem`), and turning what a connector's initialize returned, entries or an object of session
// values, into them (`toEntries`). initialize.ts reads the body and builds the answer with them.
import type { ParameterEntry } from '../../contract/schemas.js';
import { isSecret } from '../../security/secret.js';

/**
 * A key as a message shows it: at most 64 characters.
 *
 * @internal
 */
export const clipKey = (key: string) => (key.length > 64 ? `${key.slice(0, 64)}…` : key);

/**
 * Whether a value is a plain object (not `null`, not an array).
 *
 * @internal
 */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const ENTRY_FIELDS = [
  ['key', 'string'],
  ['value', 'string'],
  ['sensitive', 'boolean'],
] as const;

/**
 * What is wrong with an entry, in words that follow `Initialize entry [i]`; `undefined` when it is a valid entry.
 *
 * @internal
 */
export function entryProblem(entry: unknown): string | undefined {
  if (!isRecord(entry)) return 'is not an object with key, value and sensitive';
  for (const [name, type] of ENTRY_FIELDS) {
    if (!(name in entry)) return `has no '${name}'`;
    if (typeof entry[name] !== type) return `has a '${name}' that is not a ${type}`;
  }
  if (entry.key === '') return 'has an empty key';
  return undefined;
}

/**
 * What a connector's initialize returned, as entries: a list of entries (each checked, only the contract's three
 * fields kept) or an object of session values (strings, numbers, booleans and `secret()`s, the last sensitive),
 * with a problem for each value that is neither.
 *
 * @internal
 */
export function toEntries(result: unknown): { entries: ParameterEntry[]; problems: string[] } {
  const problems: string[] = [];
  const entries: ParameterEntry[] = [];
  if (Array.isArray(result)) {
    result.forEach((entry: unknown, index) => {
      const problem = entryProblem(entry);
      if (problem) problems.push(`entry [${index}] ${problem}`);
      else {
        // Only the contract's three fields: anything else the connector put there is not answered.
        const { key, value, sensitive } = entry as ParameterEntry;
        entries.push({ key, value, sensitive });
      }
    });
  } else if (isRecord(result)) {
    for (const key of Object.keys(result)) {
      const value = result[key];
      if (value === undefined) continue;
      if (isSecret(value)) entries.push({ key, value: value.reveal(), sensitive: true });
      else if (
        typeof value === 'string' ||
        typeof value === 'number' ||
        typeof value === 'boolean'
      ) {
        entries.push({ key, value: String(value), sensitive: false });
      } else problems.push(`'${clipKey(key)}' is not a string, number, boolean or secret()`);
    }
  } else {
    problems.push('it is neither an object of session values nor a list of entries');
  }
  return { entries, problems };
}
