import type { CompiledConnector, CompiledField } from '../../connector/compile-connector.js';
import type { ParameterEntry } from '../../contract/schemas.js';
import { InternalError, ValidationError } from '../../errors/errors.js';
import {
  SDK_SESSION_HEADERS,
  headerLineBytes,
  headerValueProblem,
  sessionNameProblem,
} from '../../security/header-safety.js';
import type { Redactor } from '../../security/redaction/redactor.js';
import { looksSecret } from '../../security/secret-names.js';
import type { SessionSealer } from '../../security/session-seal.js';
import { describeProblems, readFields } from '../request/read-fields.js';
import { InitializeInput } from './initialize-input.js';
import { oversizedConfiguration } from './oversized-configuration.js';
import { clipKey, entryProblem, isRecord, toEntries } from './parameter-entries.js';

const SUPPRESS_NOTIFICATION = 'suppressNotification';
/**
 * Most entries an initialize body may have: one per configuration field is far fewer. Checked before any value
 * is looked at, because every sensitive value costs redaction work: 20,000 of them in a 1 MiB body kept the
 * process busy for half a second per request (ARCHITECTURE.md, D6).
 */
export const MAX_INITIALIZE_ENTRIES = 1_000;

/**
 * Checks the initialize body (contract: "Parameter entry", rules 1) and the configuration. Every sensitive
 * value is handed to the redactor before anything can fail, and no message contains a value.
 *
 * @throws ValidationError with code `INVALID_INITIALIZE_BODY`, `INVALID_SUPPRESS_NOTIFICATION` or
 *   `INVALID_CONFIGURATION`
 */
export function readInitializeBody(
  body: unknown,
  connector: CompiledConnector,
  redactor: Redactor,
): InitializeInput {
  if (!Array.isArray(body)) {
    throw new ValidationError(
      body === undefined
        ? 'The initialize body is empty; expected a JSON array of { key, value, sensitive } entries'
        : 'The initialize body must be a JSON array of { key, value, sensitive } entries',
      { code: 'INVALID_INITIALIZE_BODY' },
    );
  }
  if (body.length > MAX_INITIALIZE_ENTRIES) {
    throw new ValidationError(
      `The initialize body has ${body.length} entries; at most ${MAX_INITIALIZE_ENTRIES} are accepted`,
      { code: 'INVALID_INITIALIZE_BODY' },
    );
  }
  for (const entry of body as unknown[]) {
    if (isRecord(entry) && typeof entry.value === 'string') {
      if (entry.sensitive !== false || (typeof entry.key === 'string' && looksSecret(entry.key))) {
        redactor.add(entry.value);
      }
    }
  }

  /** Each key's entry (a copy with the contract's three fields) and index in the body. */
  const byKey = new Map<string, { entry: ParameterEntry; index: number }>();
  const entries: ParameterEntry[] = [];
  let suppressNotification: boolean | undefined;
  for (let index = 0; index < body.length; index++) {
    const raw: unknown = body[index];
    const problem = entryProblem(raw);
    if (problem) {
      throw new ValidationError(`Initialize entry [${index}] ${problem}`, {
        code: 'INVALID_INITIALIZE_BODY',
      });
    }
    const { key, value, sensitive } = raw as ParameterEntry;
    const first = byKey.get(key);
    if (first) {
      throw new ValidationError(
        `Initialize entry [${index}] repeats the key '${clipKey(key)}' of entry [${first.index}]`,
        { code: 'INVALID_INITIALIZE_BODY' },
      );
    }
    const entry = { key, value, sensitive };
    byKey.set(key, { entry, index });
    if (key !== SUPPRESS_NOTIFICATION) {
      entries.push(entry);
    } else if (value === '1' || value === '2') {
      suppressNotification = value === '1';
    } else {
      throw new ValidationError(
        `'${SUPPRESS_NOTIFICATION}' must be "1" (suppress) or "2" (send as usual)`,
        { code: 'INVALID_SUPPRESS_NOTIFICATION' },
      );
    }
  }

  for (const field of connector.configFields) {
    const value = byKey.get(field.key)?.entry.value;
    if (field.secret && value !== undefined) redactor.add(value);
  }
  const rawOf = (field: CompiledField) =>
    field.key === SUPPRESS_NOTIFICATION ? undefined : byKey.get(field.key)?.entry.value;
  const holdsSecret = (field: CompiledField) =>
    field.secret || byKey.get(field.key)?.entry.sensitive !== false || looksSecret(field.key);
  const config = readFields(connector.configFields, rawOf, {
    add: (value) => redactor.add(value),
    holdsSecret,
  });
  if (!config.ok) {
    throw new ValidationError(
      `The configuration is invalid: ${describeProblems(config.problems)}`,
      {
        code: 'INVALID_CONFIGURATION',
      },
    );
  }
  return new InitializeInput(entries, config.values, suppressNotification);
}

/** What the SDK binds into every session besides the connector's entries. */
export interface SessionIds {
  readonly sdkSessionId: string;
  readonly systemId: string;
  /** The keyed fingerprint of the configuration initialize was called with. */
  readonly configuration: string;
}

/** What a session entry's name alone decides. */
interface NameJudgment {
  readonly lower: string;
  /** The connector declared it secret, or it looks like a credential. */
  readonly secret: boolean;
  /** Why it cannot be a session header, if it cannot. */
  readonly problem: string | undefined;
}

/** Names judged per connector: at most this many, of at most {@link MAX_JUDGED_NAME} characters. */
const MAX_JUDGED_NAMES = 256;
const MAX_JUDGED_NAME = 64;
const judgedNames = new WeakMap<CompiledConnector, Map<string, NameJudgment>>();

/**
 * Judges session entry names, remembering the judgment: a connector answers the same few names on every
 * initialize, and judging one (case, token characters, reserved, hop-by-hop and risky names, secret-looking)
 * cost a microsecond per entry. Connector code chooses the names, but they may come from the end
 * system, so only short ones are kept, and only so many.
 */
function judgeName(connector: CompiledConnector, name: string): NameJudgment {
  let memo = judgedNames.get(connector);
  if (memo === undefined) judgedNames.set(connector, (memo = new Map()));
  let judgment = memo.get(name);
  if (judgment === undefined) {
    const lower = name.toLowerCase();
    judgment = {
      lower,
      secret: connector.secretSessionNames.has(lower) || looksSecret(name),
      problem: sessionNameProblem(name, connector.allowedRiskyNames),
    };
    if (name.length <= MAX_JUDGED_NAME && memo.size < MAX_JUDGED_NAMES) memo.set(name, judgment);
  }
  return judgment;
}

/**
 * Turns what initialize returned into the contract's answer, after checking that every entry can be replayed
 * as a header (the platform sends each back as one on every later call) and that the entries form a session
 * later calls accept. Adds the SDK's entries: the ids, and the MAC that lets later calls prove the session is
 * this one, unchanged (ARCHITECTURE.md, D1).
 *
 * @throws InternalError with code `INVALID_INITIALIZE_RESULT`, naming each bad key (never a value); a
 * `ValidationError` `INVALID_CONFIGURATION` when the session is over budget because of what the caller configured
 */
export function buildInitializeAnswer(
  result: unknown,
  connector: CompiledConnector,
  context: {
    readonly ids: SessionIds;
    readonly sealer: SessionSealer;
    readonly redactor: Redactor;
    readonly maxHeaderBytes: number;
    /** The initialize body, to tell a session too large by what the caller configured (a 400). */
    readonly input?: InitializeInput;
  },
): ParameterEntry[] {
  const { entries, problems } = toEntries(result);
  /** Each entry by its lower-cased name. */
  const byName = new Map<string, ParameterEntry>();
  let bytes = 0;
  for (const entry of entries) {
    const name = judgeName(connector, entry.key);
    const lower = name.lower;
    entry.sensitive ||= name.secret;
    if (entry.sensitive) context.redactor.add(entry.value);
    const problem = name.problem ?? headerValueProblem(entry.value);
    const same = byName.get(lower);
    if (problem) problems.push(`'${clipKey(entry.key)}' ${problem}`);
    else if (same)
      problems.push(`'${clipKey(entry.key)}' repeats '${same.key}' (header names ignore case)`);
    byName.set(lower, entry);
    bytes += headerLineBytes(entry.key, entry.value);
  }

  const ids: ParameterEntry[] = [
    {
      key: SDK_SESSION_HEADERS.systemId,
      value: encodeURIComponent(context.ids.systemId),
      sensitive: false,
    },
    {
      key: SDK_SESSION_HEADERS.sdkSessionId,
      value: encodeURIComponent(context.ids.sdkSessionId),
      sensitive: false,
    },
    {
      key: SDK_SESSION_HEADERS.mac,
      value: context.sealer.seal(
        // Written out, not spread: the spread was half of this function's time in a busy server.
        {
          systemId: context.ids.systemId,
          sdkSessionId: context.ids.sdkSessionId,
          configuration: context.ids.configuration,
          issuedAt: Math.floor(Date.now() / 1000),
        },
        entries,
      ),
      sensitive: true,
    },
  ];
  for (const entry of ids) bytes += headerLineBytes(entry.key, entry.value);
  if (bytes > context.maxHeaderBytes) {
    // Every other entry fine: the caller's values alone make the session too large (see the function).
    const callers =
      problems.length === 0 && context.input
        ? oversizedConfiguration(entries, context.input, { bytes, budget: context.maxHeaderBytes })
        : undefined;
    if (callers) throw callers;
    problems.push(
      `the entries take ${bytes} bytes as headers, over the budget of ${context.maxHeaderBytes}`,
    );
  }

  if (problems.length === 0) {
    const session = readFields(connector.sessionFields, (field) => byName.get(field.lower)?.value);
    if (!session.ok)
      problems.push(`later calls would reject the session: ${describeProblems(session.problems)}`);
  }
  if (problems.length > 0) {
    throw new InternalError(`initialize returned an unusable session: ${problems.join('; ')}`, {
      code: 'INVALID_INITIALIZE_RESULT',
    });
  }
  return [...entries, ...ids];
}
