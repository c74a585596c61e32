// Which names look like they carry a credential: one rule for every header name, session key, query parameter
// and body field the SDK and its test kit judge. Core treats such a value as secret (redacts it, blanks it in an
// end system's error body); the kit masks it in transcripts, counts it as a leak when it shows, and scrubs it
// from cassettes. The two must agree, so the kit imports this rule through `@connector-sdk/core/internal`.
//
// It replaces four copies that disagreed; each disagreement was decided on what a wrong answer costs. Too
// broad, a rule hides ordinary values (a `token_type` of `Bearer` redacted in every log line, a `token_url`
// counted as a leak, a cassette that scrubs and learns `Bearer` everywhere); too narrow, a credential leaks.
// Names are compared without case, separators or trailing digits (`clientSecret`, `CLIENT_SECRET`,
// `client-secret`, `password2`, `Set-Cookie2` alike).
//
// - A credential noun counts when it ends the name, where English puts the head of a compound: `client_secret`,
//   `X-Vault-Token`, `githubToken`, `Proxy-Authorization`, `Set-Cookie` are credentials; `token_type`,
//   `secretName`, `cookie_consent`, `authorization_url`, `credential_id`, `api_key_id` name something about
//   one. (Core's and the kit's copies matched the nouns anywhere, and so redacted the latter; the cassette's
//   matched `token` only as a few compounds, and so missed `vaultToken`, `csrf_token`.) A plural is a list of
//   them (`tokens`, `cookies`, `api_keys`), except `tokens` after anything but a credential's kind: text
//   tokens, counted (`prompt_tokens`, `max_tokens`). A pagination token (`nextPageToken`) is taken for one:
//   it is opaque, and hiding it costs little. A noun followed by a word for what holds it is the credential
//   itself (`tokenValue`, `SecretString`, `cookie_value`, `Authorization-Header`, `credential_data`).
// - Password words count anywhere, and `passw` rather than `passw(or)?d` (core's): no ordinary field is named
//   after a password, and what is (`password_confirmation`, `Passwort`, `passwordRepeat`) holds one, which
//   every copy but the kit's missed some of.
// - Keys count as the kinds that are secret (`api`, `access`, `secret`, `private`, `session`, `auth`,
//   `signing`, `encryption`, `master`): `AWS_SECRET_ACCESS_KEY`, `privateKey`, `x-session-key`; never a bare
//   `key` (this very contract's entries are `{ key, value }`) nor `monkey`. Session ids count (`JSESSIONID`,
//   `PHPSESSID`, `sessionId`): an end system's session id is the login itself. Core's copy knew no private
//   or session key and no session id.
// - Short words count only as the whole last part of a name (`DB_PWD`, `DB_PASS`, `connect.sid`, `X-Card-Pin`,
//   `otp`, `X-Jwt`), never inside a word (`insider`, `passage`, `spin`) or before another (`pass_count`).
//   The error-body copy took them as any part, the cassette's only as the whole name; neither knew all six.
// - The SDK's own session id (`X-Sdk-Session-Id`) is not one: without the MAC it proves nothing, and it is
//   what ties a session's log lines together.
//
// A query parameter may also be a credential by a name that is ordinary elsewhere (`code`, `sig`, `key`): the
// URLs of log lines add those (`safeUrl`).

import { SDK_SESSION_HEADER_KEYS } from './header-safety.js';

/** Credential words that count anywhere in a folded name. */
const ANYWHERE = /passw|passphrase/;
/** Credential nouns that count at the end of a folded name (`tokens` alone: see {@link isCredentialName}). */
const LAST_WORD =
  /(?:token|(?:access|refresh|auth|api|bearer|session|oauth|id)tokens|secrets?|authorization|cookies?|credentials?|(?:api|access|secret|private|session|auth|signing|encryption|master)keys?|sess(?:ion)?ids?)(?:value|string|binary|text|data|header|raw)?$/;
/** Short credential words that count only as the last part of a name, trailing digits dropped. */
const SHORT_LAST_PARTS = new Set(['pwd', 'pass', 'pin', 'otp', 'sid', 'jwt']);
/** Where a name divides into parts: separators, and lower-to-upper case (`dbPwd`). */
const PART_BREAK = /[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])/;
const NOT_LETTER_OR_DIGIT = /[^a-z0-9]+/g;
const TRAILING_DIGITS = /\d+$/;
const TRAILING_NON_LETTERS = /[^A-Za-z]+$/;
/**
 * How much of a name's end the end-anchored checks read: more than any credential noun. Expressions anchored at
 * the end retry from every position, so over a whole name (clients choose names, up to the size of a request
 * head) a long run of digits or dashes would cost the square of its length.
 */
const TAIL = 64;
const OWN_SESSION_ID = SDK_SESSION_HEADER_KEYS.sdkSessionId;

/**
 * Whether a header, parameter or field name looks like it carries a credential: the one rule the SDK and its
 * test kit judge names by.
 *
 * @param name - a header name, session key, query parameter or body field, as written
 * @returns whether its value should be treated as a secret whatever it looks like
 * @internal
 */
export function isCredentialName(name: string): boolean {
  const lower = name.toLowerCase();
  if (lower === OWN_SESSION_ID) return false;
  const folded = lower.replace(NOT_LETTER_OR_DIGIT, '');
  if (ANYWHERE.test(folded)) return true;
  const last = folded.slice(-TAIL).replace(TRAILING_DIGITS, '');
  // `tokens` after a word that is not a credential's kind counts text tokens (`max_tokens`); alone, it is a list.
  if (LAST_WORD.test(last) || last === 'tokens') return true;
  const parts = name.slice(-TAIL).replace(TRAILING_NON_LETTERS, '').split(PART_BREAK);
  return SHORT_LAST_PARTS.has((parts[parts.length - 1] ?? '').toLowerCase());
}

/**
 * Names already judged by {@link looksSecret}: every request has its header names and entry keys judged, and
 * they are nearly always the same few. Clients choose the names, so only short ones are kept, and
 * only so many: at most 1,024 × 64 characters.
 */
const judgedNames = new Map<string, boolean>();
const MAX_JUDGED_NAMES = 1_024;
const MAX_JUDGED_NAME_LENGTH = 64;

/**
 * {@link isCredentialName}, remembered for the short names every request repeats.
 *
 * @internal
 */
export function looksSecret(name: string): boolean {
  if (name.length > MAX_JUDGED_NAME_LENGTH) return isCredentialName(name);
  let secret = judgedNames.get(name);
  if (secret === undefined) {
    secret = isCredentialName(name);
    if (judgedNames.size < MAX_JUDGED_NAMES) judgedNames.set(name, secret);
  }
  return secret;
}
