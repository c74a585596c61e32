import type { CompiledConnector } from '../../connector/compile-connector.js';
import type { ParameterEntry } from '../../contract/schemas.js';

/** One part of what makes a configuration this one: a key and its value, as fingerprinted. */
export interface IdentityEntry {
  readonly key: string;
  readonly value: string;
}

/**
 * What tells one configuration from another for the system caches and the rate limit: the declared fields only,
 * each as it parsed, so that a caller cannot escape its own limit by re-spelling what it sends
 * (ARCHITECTURE.md, D2). An undeclared entry, spaces a field trims, a default written out, an empty optional
 * value, a URL's host case or trailing `/` change nothing; a JSON value (or any value parsed to an object)
 * counts as written, since its parsed form has no one spelling. A connector that declares no fields reads what
 * it needs from the entries themselves, so there every entry counts, as sent.
 *
 * @param input - the initialize body as read: its entries and the configuration they parsed to
 * @internal
 */
export function configurationIdentity(
  connector: CompiledConnector,
  input: {
    readonly entries: readonly ParameterEntry[];
    readonly config: Readonly<Record<string, unknown>>;
  },
): readonly IdentityEntry[] {
  // By key, so that the fingerprint finds them in order and need not sort them.
  const fields = connector.configFieldsByKey;
  if (fields.length === 0) return input.entries;
  const identity: IdentityEntry[] = [];
  for (const field of fields) {
    const value = input.config[field.key];
    let text: string | undefined;
    if (typeof value === 'string') text = field.url ? withoutTrailingSlashes(value) : value;
    else if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
      text = String(value);
    // An object's default stands for no value sent, as an absent field does.
    else if (value !== undefined && value !== null) text = sentValue(input.entries, field.key);
    if (text !== undefined) identity.push({ key: field.key, value: text });
  }
  return identity;
}

function sentValue(entries: readonly ParameterEntry[], key: string): string | undefined {
  for (const entry of entries) if (entry.key === key) return entry.value;
  return undefined;
}

/** `https://a.example/api/` and `https://a.example/api` name the same end system. */
function withoutTrailingSlashes(url: string): string {
  let end = url.length;
  while (end > 0 && url.charCodeAt(end - 1) === 0x2f) end--;
  return end === url.length ? url : url.slice(0, end);
}
