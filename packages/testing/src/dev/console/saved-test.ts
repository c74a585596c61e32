import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import type { ParameterEntry } from '@connector-sdk/core';
import type { CassetteRecorder } from '../../cassette/record/cassette-recorder.js';
import type { CallStep, FaultStep, ScenarioStep } from './scenario.js';
import { tsLiteral } from './ts-literal.js';

// A console session saved as a test of the project: its end-system calls as a cassette (scrubbed and proven
// free of every secret the requests knew, as any recording is) and a Vitest file that plays the same platform
// calls against the connector in-process, answered from that cassette: offline, no end system needed. The
// configuration's sensitive values are written as placeholders a replay accepts; an answer is compared whole
// only when it held no secret (else its status alone).

/** Every section of a saved cassette has this name: each saved test has a file of its own. */
export const SAVED_SECTION = 'dev console > replays the saved session';

/** A step of the session and how the connector answered it. */
export interface SavedStep {
  readonly step: Exclude<ScenarioStep, FaultStep>;
  readonly status: number;
  /** The answer's body, when it held no secret and was JSON. */
  readonly body?: unknown;
}

/** Where a save goes and what the test imports. */
export interface SaveTarget {
  readonly directory: string;
  readonly connectorModule: string;
  readonly exportName: string;
  /** The hosts the dev server lets the connector reach, which the replayed initialize checks too. */
  readonly egressAllow: readonly string[];
}

/** The name a save takes: letters, digits and dashes, from the one asked for or the time. */
export function saveName(asked: string | undefined, now: Date): string {
  const slug = (asked ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return slug === '' ? `console-${now.toISOString().slice(0, 19).replace(/[:T]/g, '-')}` : slug;
}

/** The configuration as the test writes it: sensitive values (placeholders by now) marked so. */
function configOf(config: readonly ParameterEntry[]): Record<string, unknown> {
  return Object.fromEntries(
    config.map(({ key, value, sensitive }) => [
      key,
      sensitive ? { value, sensitive: true } : value,
    ]),
  );
}

/** Every string in a JSON value replaced by a placeholder of its own. */
function replaceStrings(value: unknown, name: string, count: { n: number }): unknown {
  if (typeof value === 'string') return `${name}-${++count.n}`;
  if (Array.isArray(value)) return value.map((item) => replaceStrings(item, name, count));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, replaceStrings(item, name, count)]),
    );
  return value;
}

/**
 * A value for a sensitive field in a saved test, which its field's schema accepts: a replay takes any value in
 * a secret's place, but initialize checks the field first. Tried in turn: a name (`replayed-password`), for a
 * JSON field the same JSON with every text replaced, the secret's shape with its letters and digits replaced.
 *
 * @returns the placeholder, or `undefined` when the schema takes none of them
 * @internal
 */
export function placeholderFor(
  key: string,
  value: string,
  accepts: (candidate: string) => boolean,
): string | undefined {
  const name = `replayed-${key}`;
  const candidates = [name];
  try {
    candidates.push(JSON.stringify(replaceStrings(JSON.parse(value), name, { n: 0 })));
  } catch {
    // not JSON
  }
  candidates.push(
    value.replace(/[A-Z]/g, 'X').replace(/[a-z]/g, 'x').replace(/[0-9]/g, '7'),
    'x'.repeat(value.length),
  );
  return candidates.find((candidate) => candidate !== value && accepts(candidate));
}

function callCode(step: CallStep): string {
  const request = {
    method: step.method,
    path: step.path,
    ...(Object.keys(step.query).length === 0 ? {} : { query: step.query }),
    ...(step.body === undefined ? {} : { body: step.body }),
  };
  if (step.upload === undefined) return `await platform.call(${tsLiteral(request, '    ')})`;
  const { fileName, contentType, base64, fields, part = 'file' } = step.upload;
  const args = [fileName, contentType, base64, fields, part].map((arg) => tsLiteral(arg));
  // The body's place marked, then filled with the call that makes the form.
  const mark = 'upload-body-goes-here';
  // A function, not a text: `$&` and its kind in a file name must stay as they are.
  return `await platform.call(${tsLiteral({ ...request, body: mark }, '    ')})`.replace(
    `'${mark}'`,
    () => `upload(${args.join(', ')})`,
  );
}

function stepCode(saved: SavedStep, index: number): string {
  const { step } = saved;
  const call =
    step.kind === 'initialize'
      ? 'await platform.initialize()'
      : step.kind === 'cleanup'
        ? 'await platform.cleanup()'
        : callCode(step);
  const name = `answer${index + 1}`;
  const lines = [
    `    // ${step.kind === 'call' ? `${step.operation}: ${step.method} ${step.path}` : step.kind}`,
    `    const ${name} = ${call};`,
    `    expect(${name}.status).toBe(${saved.status});`,
  ];
  if (saved.body !== undefined)
    lines.push(`    expect(${name}.body).toEqual(${tsLiteral(saved.body, '    ')});`);
  return lines.join('\n');
}

/**
 * The source of the saved test.
 *
 * @internal
 */
export function savedTestSource(
  target: SaveTarget,
  name: string,
  {
    config,
    steps,
  }: { readonly config: readonly ParameterEntry[]; readonly steps: readonly SavedStep[] },
): string {
  const from = relative(target.directory, target.connectorModule).replace(
    /\.([mc]?)ts$/,
    (_match, kind: string) => `.${kind}js`,
  );
  const importPath = from.startsWith('.') ? from : `./${from}`;
  const uploads = steps.some(({ step }) => step.kind === 'call' && step.upload !== undefined);
  const [describeName, testName] = SAVED_SECTION.split(' > ');
  return `// Saved by the dev console: a session's platform calls, replayed offline from ${name}.cassette.json (its
// end-system calls, secrets replaced by placeholders). Run it with the project's tests; delete both files when
// it has served. Sensitive configuration values are placeholders their fields accept, which a replay takes in
// the secrets' place.
import { createPlatformSimulator } from '@connector-sdk/testing';
import { useCassette } from '@connector-sdk/testing/vitest';
import { describe, expect, it } from 'vitest';
import { ${target.exportName === 'default' ? 'default as connector' : `${target.exportName} as connector`} } from ${tsLiteral(importPath)};
${
  uploads
    ? `
/** A file upload as the console sent it. */
function upload(
  name: string,
  type: string,
  base64: string,
  fields: Record<string, string>,
  part: string,
): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append(part, new Blob([Buffer.from(base64, 'base64')], { type }), name);
  return form;
}
`
    : ''
}
describe(${tsLiteral(describeName)}, () => {
  useCassette({ path: new URL('./${name}.cassette.json', import.meta.url), mode: 'replay' });

  it(${tsLiteral(testName)}, async () => {
    const platform = createPlatformSimulator({
      target: connector,
      config: ${tsLiteral(configOf(config), '      ')},
      handlerOptions: ${tsLiteral({ validateAnswers: true, egress: { allow: target.egressAllow } }, '      ')},
    });
${steps.map(stepCode).join('\n')}
  });
});
`;
}

/** The files a save of that name writes, and whether one of them exists already. */
export function savedFiles(
  target: SaveTarget,
  name: string,
): { readonly test: string; readonly cassette: string; readonly exists: boolean } {
  const test = join(target.directory, `${name}.test.ts`);
  const cassette = join(target.directory, `${name}.cassette.json`);
  return { test, cassette, exists: existsSync(test) || existsSync(cassette) };
}

/**
 * Writes the cassette, then the test beside it.
 *
 * @returns the two files' paths
 * @throws CassetteLeakError when a secret survived scrubbing (nothing is written)
 * @internal
 */
export async function writeSavedTest(
  files: { readonly test: string; readonly cassette: string },
  recorder: CassetteRecorder,
  source: string,
): Promise<{ readonly test: string; readonly cassette: string }> {
  const { test, cassette } = files;
  await mkdir(dirname(test), { recursive: true });
  await recorder.write(cassette);
  await writeFile(test, source);
  return { test, cassette };
}
