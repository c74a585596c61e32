// Which header and parameter names look like they carry a credential, judged once per name.

/** Header names whose values are treated as secret whatever the connector declares. */
const SECRET_HEADER_NAME = /authorization|cookie|token|secret|passw(or)?d|api[-_]?key|credential/i;

/**
 * Names already judged by {@link looksSecret}: every request has its header names and entry keys judged, and
 * they are nearly always the same few (issue 8). Clients choose the names, so only short ones are kept, and
 * only so many: at most 1,024 × 64 characters.
 */
const judgedNames = new Map<string, boolean>();
const MAX_JUDGED_NAMES = 1_024;
const MAX_JUDGED_NAME_LENGTH = 64;

/**
 * Whether a header or parameter name looks like it carries a credential.
 *
 * @internal
 */
export function looksSecret(name: string): boolean {
  if (name.length > MAX_JUDGED_NAME_LENGTH) return SECRET_HEADER_NAME.test(name);
  let secret = judgedNames.get(name);
  if (secret === undefined) {
    secret = SECRET_HEADER_NAME.test(name);
    if (judgedNames.size < MAX_JUDGED_NAMES) judgedNames.set(name, secret);
  }
  return secret;
}
