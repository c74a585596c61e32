import { z } from '@connector-sdk/core';
import { diffArrays } from 'diff';
import type { CallRequest } from '../../simulator/simulator-types.js';
import type { ExchangeEntry, TranscriptEntry } from '../../simulator/transcript.js';
import type { EndSystemCall } from './end-system-log.js';
import type { OutlineOperation } from './connector-outline.js';

// A console session as steps the platform took (initialize, later calls, cleanup), which a reload runs again,
// a save writes as a test, and a transcript the terminal compares run with run.

/** A file the console uploads, as the page sends it. */
export interface UploadInput {
  readonly fileName: string;
  readonly contentType: string;
  readonly base64: string;
  readonly fields: Readonly<Record<string, string>>;
  /** The file part's name (the operation's `upload.file`). */
  readonly part?: string;
}

/** A later call, as the console's form gives it and a saved test repeats it. */
export interface CallStep {
  readonly kind: 'call';
  readonly operation: string;
  readonly method: string;
  /** The path under the versioned base, parameters put in. */
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  /** The JSON body, when it takes one. */
  readonly body?: unknown;
  readonly upload?: UploadInput;
}

/** One step of a console session. */
export type ScenarioStep =
  { readonly kind: 'initialize' } | CallStep | { readonly kind: 'cleanup' } | FaultStep;

/** The end system ends the session, or rate-limits, for the next call. */
export type FaultStep = { readonly kind: 'expire' } | { readonly kind: 'rate-limit' };

/** What the console's operation form sends. */
export interface CallInput {
  readonly operation: string;
  readonly params?: Readonly<Record<string, string>> | undefined;
  readonly query?: Readonly<Record<string, string>> | undefined;
  /** The body as JSON text; empty for none. */
  readonly body?: string | undefined;
  readonly upload?: UploadInput | undefined;
}

const Texts = z.record(z.string().max(200), z.string().max(100_000));

/** What the page may send for a call: anything else is refused before it becomes a step or a saved test. */
const CallInputSchema = z.strictObject({
  operation: z.string().min(1).max(200),
  params: Texts.optional(),
  query: Texts.optional(),
  body: z
    .string()
    .max(32 * 1024 * 1024)
    .optional(),
  upload: z
    .strictObject({
      fileName: z.string().max(1_000),
      contentType: z.string().max(200),
      base64: z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, { error: 'not base64' }),
      fields: Texts,
    })
    .optional(),
});

/**
 * The call the page sent, checked.
 *
 * @throws TypeError naming what is wrong
 * @internal
 */
export function callInput(value: unknown): CallInput {
  const parsed = CallInputSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new TypeError(
    `The call is not valid: ${issue?.path.join('.') || 'it'} ${issue?.message ?? ''}`.trim(),
  );
}

/**
 * The step a form's input makes: the operation's path with each parameter percent-encoded, the query without
 * empty values, the body parsed.
 *
 * @throws TypeError naming a missing parameter or a body that is not JSON
 * @internal
 */
export function callStep(operation: OutlineOperation, input: CallInput): CallStep {
  const params = input.params ?? {};
  const path = operation.path.replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) => {
    const value = Object.hasOwn(params, name) ? (params[name] ?? '') : '';
    if (value === '') throw new TypeError(`The path parameter ${name} is empty`);
    // `.` and `..` sent as they are would be a dot segment, another route: the connector gets them as a value.
    return value === '.' || value === '..'
      ? value.replace(/\./g, '%2E')
      : encodeURIComponent(value);
  });
  const query = Object.fromEntries(
    Object.entries(input.query ?? {}).filter(([, value]) => value !== ''),
  );
  let body: unknown;
  const text = input.body?.trim() ?? '';
  if (text !== '') {
    try {
      body = JSON.parse(text);
    } catch {
      throw new TypeError('The body is not JSON');
    }
  }
  return {
    kind: 'call',
    operation: operation.name,
    method: operation.method,
    path,
    query,
    ...(body === undefined ? {} : { body }),
    ...(input.upload === undefined
      ? {}
      : { upload: { ...input.upload, part: operation.upload?.file ?? 'file' } }),
  };
}

/**
 * The simulator's request for a step: an upload as `multipart/form-data`, else JSON.
 *
 * @internal
 */
export function callRequestOf(step: CallStep): CallRequest {
  let body: unknown = step.body;
  if (step.upload !== undefined) {
    const form = new FormData();
    for (const [name, value] of Object.entries(step.upload.fields)) form.append(name, value);
    const bytes = Buffer.from(step.upload.base64, 'base64');
    form.append(
      step.upload.part ?? 'file',
      new Blob([bytes], { type: step.upload.contentType || 'application/octet-stream' }),
      step.upload.fileName,
    );
    body = form;
  }
  return {
    method: step.method,
    path: step.path,
    query: step.query,
    ...(body === undefined ? {} : { body }),
  };
}

/** A transcript entry and the end-system calls made under it. */
export type ConsoleEntry =
  | (ExchangeEntry & { readonly endSystem: readonly EndSystemCall[] })
  | Extract<TranscriptEntry, { type: 'wait' }>;

/**
 * An entry as lines to compare run with run: no duration, which changes every time.
 *
 * @internal
 */
export function comparableLines(entry: ConsoleEntry): string[] {
  if (entry.type === 'wait') return [`… rate limited: waited ${entry.waitMs} ms`];
  const lines = [`→ ${entry.request.method} ${entry.request.url}`];
  if (entry.request.body) lines.push(`  ${entry.request.body}`);
  for (const call of entry.endSystem)
    lines.push(`  ↳ ${call.method} ${call.url} ${call.status ?? call.code ?? ''}`.trimEnd());
  lines.push(`← ${entry.response.status}`, `  ${entry.response.body}`);
  for (const problem of entry.problems) lines.push(`  ✗ contract: ${problem}`);
  return lines;
}

/**
 * What changed between two runs of one scenario, entry by entry, as terminal lines: `-` before, `+` now.
 *
 * @returns the lines; empty when every entry reads as before
 * @internal
 */
export function transcriptChanges(
  before: readonly ConsoleEntry[],
  after: readonly ConsoleEntry[],
): string[] {
  const lines: string[] = [];
  const count = Math.max(before.length, after.length);
  for (let index = 0; index < count; index++) {
    const was = before[index];
    const is = after[index];
    const old = was === undefined ? [] : comparableLines(was);
    const now = is === undefined ? [] : comparableLines(is);
    if (old.join('\n') === now.join('\n')) continue;
    lines.push(`~ exchange ${index + 1}: ${(now[0] ?? old[0] ?? '').slice(2)}`);
    for (const part of diffArrays(old, now)) {
      if (!part.added && !part.removed) continue;
      for (const line of part.value) lines.push(`${part.added ? '+' : '-'} ${clip(line)}`);
    }
  }
  return lines;
}

function clip(line: string): string {
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
