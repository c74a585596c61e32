import type { CompiledField } from '../../connector/compile-connector.js';
import type { z } from 'zod';
import { INVALID } from '../../connector/fast-parse.js';

/** One field that failed validation; the message never contains the value. */
export interface FieldProblem {
  readonly key: string;
  readonly message: string;
  /** The field was required and had no value. */
  readonly missing: boolean;
}

/** The outcome of reading fields. */
export type FieldsResult =
  | { readonly ok: true; readonly values: Record<string, unknown> }
  | { readonly ok: false; readonly problems: readonly FieldProblem[] };

/** The default judgment of {@link readFields}: made once, not on every call. */
const declaredSecret = (field: CompiledField): boolean => field.secret;

/**
 * Reads and validates fields. An empty value counts as absent for a field that accepts no value.
 *
 * @param fields - the compiled fields
 * @param lookup - the raw value of a field, or `undefined` when absent
 * @param secrets - where the secret values a field's schema changed go, and which fields are secret (the
 *   request's redactor serves as it is); the raw values must be registered before
 */
export function readFields(
  fields: readonly CompiledField[],
  lookup: (field: CompiledField) => string | undefined,
  secrets?: FieldSecrets,
): FieldsResult {
  const values: Record<string, unknown> = {};
  for (const field of fields) {
    let raw = lookup(field);
    if (raw === '' && field.optional) raw = undefined;
    let value: unknown;
    if (field.fast !== undefined) {
      value = field.fast(raw);
      if (value === INVALID) return readEachField(fields, lookup, secrets);
    } else {
      const result = field.schema.safeParse(raw);
      if (!result.success) return readEachField(fields, lookup, secrets);
      value = result.data;
    }
    if (value === undefined) continue;
    values[field.key] = value;
    if (secrets !== undefined && value !== raw && (raw !== undefined || field.secretInside))
      registerParsed(field, value, secrets);
  }
  return { ok: true, values };
}

/**
 * What zod says about a secret value, without the parts of it zod quotes: the keys of a JSON value
 * (`Unrecognized key: "…"`, a record's keys) and the path inside it, which names keys the value chose
 * (ARCHITECTURE.md, D8). zod's other messages never quote the input.
 */
function secretProblem(key: string, issue: z.core.$ZodIssue): FieldProblem {
  const message =
    issue.code === 'unrecognized_keys'
      ? 'holds keys that are not allowed'
      : issue.code === 'invalid_key'
        ? 'holds a key that is not allowed'
        : issue.path.length > 0
          ? `holds a value that is not allowed (${issue.message})`
          : issue.message;
  return { key, message, missing: false };
}

/** Every field through its zod schema, every problem worded: the path of a request that failed. */
function readEachField(
  fields: readonly CompiledField[],
  lookup: (field: CompiledField) => string | undefined,
  secrets: FieldSecrets | undefined,
): FieldsResult {
  const holdsSecret = secrets?.holdsSecret ?? declaredSecret;
  const values: Record<string, unknown> = {};
  let problems: FieldProblem[] | undefined;
  for (const field of fields) {
    let raw = lookup(field);
    if (raw === '' && field.optional) raw = undefined;
    const result = field.schema.safeParse(raw);
    if (result.success) {
      const value: unknown = result.data;
      if (value === undefined) continue;
      values[field.key] = value;
      if (secrets !== undefined && value !== raw && (raw !== undefined || field.secretInside))
        registerParsed(field, value, secrets);
      continue;
    }
    problems ??= [];
    if (raw === undefined) {
      problems.push({ key: field.key, message: 'is required', missing: true });
      continue;
    }
    if (holdsSecret(field)) {
      for (const issue of result.error.issues) problems.push(secretProblem(field.key, issue));
      continue;
    }
    for (const issue of result.error.issues) {
      const path = issue.path.length === 0 ? '' : `.${issue.path.join('.')}`;
      problems.push({ key: `${field.key}${path}`, message: issue.message, missing: false });
    }
  }
  return problems ? { ok: false, problems } : { ok: true, values };
}

/**
 * `'port' must be a whole number` for the field helpers' predicates; `'body.text': Too small: …` for zod's own
 * sentences.
 */
export function describeProblem(key: string, message: string): string {
  return /^[A-Z]/.test(message) ? `'${key}': ${message}` : `'${key}' ${message}`;
}

/**
 * The most problems one message describes. The first say what to fix, and the message is clipped anyway: a body
 * of 80,000 wrong items made a message of megabytes, redacted whole before it was clipped, which cost half a
 * second of CPU to answer one 1 MiB request.
 */
export const MAX_DESCRIBED_PROBLEMS = 10;

/**
 * The problems as one sentence, the first {@link MAX_DESCRIBED_PROBLEMS} of them and how many more there are.
 *
 * @param count - how many problems there are in all, when `sentences` holds only the first ones
 */
export function joinProblems(sentences: readonly string[], count = sentences.length): string {
  const shown = sentences.slice(0, MAX_DESCRIBED_PROBLEMS).join('; ');
  return count > MAX_DESCRIBED_PROBLEMS
    ? `${shown}; and ${count - MAX_DESCRIBED_PROBLEMS} more`
    : shown;
}

/** `'a' is required; 'b' must be a whole number` */
export function describeProblems(problems: readonly FieldProblem[]): string {
  return joinProblems(
    problems.slice(0, MAX_DESCRIBED_PROBLEMS).map((p) => describeProblem(p.key, p.message)),
    problems.length,
  );
}

/**
 * What a read does with secrets: where the secret values a field's schema changed go (the request's redactor,
 * as connector code will get them: see {@link registerParsed}), and which fields are secret.
 */
interface FieldSecrets {
  add(value: string): void;
  /**
   * Whether a field's value is secret, so that no problem quotes any part of it; by default, the fields
   * declared `field.secret()` or named like credentials.
   */
  readonly holdsSecret?: (field: CompiledField) => boolean;
}

/**
 * Registers every string of a field's parsed value when it is secret and parsing changed it: a value that holds
 * a secret field inside (`field.json(z.object({ token: field.secret() }))`), whose token connector code uses
 * alone, or a secret (or sensitive) value its own schema reshapes (`field.secret().toLowerCase()`, a
 * `.transform()` that splits it): the raw value, registered whole, covers neither. The caller passes values
 * sent, and the default of a field with a secret inside: any other default is the author's, never registered.
 * Numbers and flags hold nothing to hide.
 */
function registerParsed(field: CompiledField, value: unknown, secrets: FieldSecrets): void {
  if (
    field.secretInside ||
    ((typeof value === 'string' || (typeof value === 'object' && value !== null)) &&
      (secrets.holdsSecret ?? declaredSecret)(field))
  )
    addLeaves(value, secrets, 0);
}

function addLeaves(value: unknown, redactor: FieldSecrets, depth: number): void {
  if (typeof value === 'string') redactor.add(value);
  else if (typeof value === 'object' && value !== null && depth < 32) {
    const items =
      value instanceof Map || value instanceof Set ? value.values() : Object.values(value);
    for (const item of items) addLeaves(item, redactor, depth + 1);
  }
}
