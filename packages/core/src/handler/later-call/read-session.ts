import type { CompiledConnector } from '../../connector/compile-connector.js';
import { UnauthenticatedError } from '../../errors/errors.js';
import { stackless } from '../../errors/stackless.js';
import type { Logger } from '../../logging/logger.js';
import { SDK_SESSION_HEADER_KEYS, SDK_SESSION_HEADERS } from '../../security/header-safety.js';
import type { Redactor } from '../../security/redaction/redactor.js';
import { looksSecret } from '../../security/secret-names.js';
import { SESSION_KEY_ENV, type SessionKeys } from '../../security/session-keys.js';
import type { SessionClaims, SessionSealer } from '../../security/session-seal.js';
import { describeProblems, readFields } from '../request/read-fields.js';
import { Refusal } from '../refusal.js';
import { MAX_ID_LENGTH, idProblem } from '../request/session-ids.js';
import { tenantKey } from './rate-limiter.js';

type Headers = Readonly<Record<string, string | undefined>>;

const {
  mac: MAC_HEADER,
  systemId: SYSTEM_HEADER,
  sdkSessionId: SESSION_HEADER,
} = SDK_SESSION_HEADER_KEYS;

/** A session whose SDK entry verified: ids and scopes the caller cannot have chosen, and the typed values. */
export interface VerifiedSession extends SessionClaims {
  readonly values: Record<string, unknown>;
  /** The session's tenant ({@link tenantKey}): its share of the calls in flight is counted under it. */
  readonly tenant: string;
}

/** What {@link readSession} verifies against. */
export interface SessionReader {
  readonly connector: CompiledConnector;
  readonly keys: SessionKeys;
  /** Sessions issued longer ago than this are expired. */
  readonly maxAgeMs: number;
  /** Where a session signed by an unknown key is reported, when the key is this process's own. */
  readonly logger: Logger;
  /** Verifies the seal, remembering the sessions verified lately so a replayed one costs no new HMAC. */
  readonly sealer: SessionSealer;
}

/** How far ahead of this clock another instance's may run. */
const CLOCK_SKEW_S = 300;
/** At most one hint a minute about sessions signed elsewhere. */
let lastKeyHintAt = 0;

const unauthenticated = (
  code: 'SESSION_MISSING' | 'SESSION_INVALID' | 'SESSION_EXPIRED',
  message: string,
) => stackless(() => new UnauthenticatedError(message, { code }));

/**
 * The refusal of a call without a session, made once: it names nothing of the request. Frozen, since every such
 * call is answered with this one error.
 */
const NO_SESSION = new Refusal(
  Object.freeze(
    unauthenticated(
      'SESSION_MISSING',
      'No session: initialize first (the session headers are missing)',
    ),
  ),
);

/** The characters encodeURIComponent leaves as they are: an id of only these is its own encoding. */
const UNESCAPED = /^[\w.!~*'()-]*$/;

/**
 * The id an id header holds, as initialize wrote it, or `undefined` when it is missing, malformed or not a usable
 * id ({@link idProblem}): any other spelling of the same id counts as changed.
 */
function readId(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  // The common id (letters, digits, dashes): decoding and encoding it again would give it back unchanged, and
  // none of its characters is one `idProblem` looks for, so only its length is left to judge.
  if (UNESCAPED.test(value))
    return value.length === 0 || value.length > MAX_ID_LENGTH ? undefined : value;
  // Either step throws on text no URL encoding spells (a lone surrogate): that id is malformed too.
  try {
    const id = decodeURIComponent(value);
    return encodeURIComponent(id) === value && idProblem(id) === undefined ? id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads the session of a later call and proves it is one this connector issued, unchanged (ARCHITECTURE.md, D1):
 * the SDK's session entry must verify over the ids, the issue time and every entry initialize answered, before
 * any connector code, cache, store or rate limit is touched. Secret values go to the redactor first, valid or
 * not.
 *
 * @returns the session, or the refusal of a call that carries none (`SESSION_MISSING`, 401)
 * @throws UnauthenticatedError (401, so the platform initializes again): `SESSION_INVALID` when it does not
 *   verify or its values fail the session fields, `SESSION_EXPIRED` when it is older than `maxAgeMs`
 * @internal
 */
export function readSession(
  reader: SessionReader,
  headers: Headers,
  redactor: Redactor,
): VerifiedSession | Refusal {
  const { connector, keys } = reader;
  const fields = connector.sessionFields;
  for (const field of fields) {
    const value = headers[field.lower];
    if (value !== undefined && field.secret) redactor.add(value);
  }
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined && looksSecret(name)) redactor.add(value);
  }

  const token = headers[MAC_HEADER];
  // The commonest refusal (every caller that has not initialized yet, every scanner) is returned, not thrown:
  // throwing cost more than the rest of the answer (ARCHITECTURE.md, D20).
  if (token === undefined) return NO_SESSION;
  // Not a credential, but with the rest of the headers it replays the session: never log it.
  redactor.add(token);
  const systemId = readId(headers[SYSTEM_HEADER]);
  const sdkSessionId = readId(headers[SESSION_HEADER]);
  if (systemId === undefined || sdkSessionId === undefined) {
    throw unauthenticated(
      'SESSION_INVALID',
      `The session's id headers are missing or malformed; initialize again`,
    );
  }
  const unsealed = reader.sealer.unseal({ token, systemId, sdkSessionId }, (name) => headers[name]);
  if (!unsealed.ok) {
    if (unsealed.reason === 'unknown-key') {
      if (keys.generated) hintAboutKeys(reader.logger);
      throw unauthenticated(
        'SESSION_INVALID',
        'The session was signed with a key this connector does not hold (a restart or another instance); initialize again',
      );
    }
    throw unauthenticated(
      'SESSION_INVALID',
      unsealed.reason === 'malformed'
        ? `The session's ${SDK_SESSION_HEADERS.mac} entry is malformed; initialize again`
        : 'The session does not verify: it was changed after initialize; initialize again',
    );
  }
  const { claims, covered } = unsealed;
  const now = Math.floor(Date.now() / 1000);
  if (claims.issuedAt > now + CLOCK_SKEW_S) {
    throw unauthenticated(
      'SESSION_INVALID',
      'The session was issued in the future; initialize again',
    );
  }
  if ((now - claims.issuedAt) * 1000 > reader.maxAgeMs) {
    throw unauthenticated(
      'SESSION_EXPIRED',
      'The session is older than this connector accepts; initialize again',
    );
  }

  // A declared session header that initialize did not answer was added by the caller.
  for (const field of fields) {
    if (headers[field.lower] !== undefined && !covered.includes(field.lower)) {
      throw unauthenticated(
        'SESSION_INVALID',
        `The session header '${field.key}' was not part of the session initialize answered; initialize again`,
      );
    }
  }
  const result = readFields(fields, (field) => headers[field.lower], redactor);
  if (!result.ok) {
    throw unauthenticated(
      'SESSION_INVALID',
      `The session is invalid: ${describeProblems(result.problems)}`,
    );
  }
  return new Session(claims, result.values);
}

/**
 * A verified session: made with `new`, not as an object literal, as it lives as long as its request (see
 * `Redactor`).
 */
class Session implements VerifiedSession {
  readonly systemId: string;
  readonly sdkSessionId: string;
  readonly configuration: string;
  readonly issuedAt: number;
  readonly values: Record<string, unknown>;
  readonly tenant: string;
  constructor(claims: SessionClaims, values: Record<string, unknown>) {
    this.systemId = claims.systemId;
    this.sdkSessionId = claims.sdkSessionId;
    this.configuration = claims.configuration;
    this.issuedAt = claims.issuedAt;
    this.values = values;
    this.tenant = tenantOf(claims);
  }
}

/**
 * The tenant key of each verified session's claims, made once: a replayed session is recalled with the same
 * claims (`VerifiedSessions`), and its key, made anew on every call, cost a tenth of a later call's work in the
 * handler (encoding the id, then hashing a new string to find the tenant's count).
 */
const tenants = new WeakMap<SessionClaims, string>();

function tenantOf(claims: SessionClaims): string {
  let tenant = tenants.get(claims);
  if (tenant === undefined) tenants.set(claims, (tenant = tenantKey(claims)));
  return tenant;
}

function hintAboutKeys(logger: Logger): void {
  const now = Date.now();
  if (now - lastKeyHintAt < 60_000) return;
  lastKeyHintAt = now;
  try {
    logger.warn(
      { code: 'SESSION_INVALID' },
      `a session signed by another process was refused: this process signs with a random key. Behind a load ` +
        `balancer or after a restart, give every instance the same sessionKey option or ${SESSION_KEY_ENV}`,
    );
  } catch {
    // A failing logger must not change the answer.
  }
}
