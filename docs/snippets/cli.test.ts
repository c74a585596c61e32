// The command-line reference (docs/cli.md) lists exactly the options each command's --help lists, and the
// scaffolder's templates, so a flag added to a CLI, or taken away, fails here until the page says so.
import { readFileSync } from 'node:fs';
import { runCli as runTestingCli } from '@connector-sdk/testing';
import { expect, it } from 'vitest';
import {
  TEMPLATES,
  runCli as runCreateConnector,
} from '../../packages/create-connector/src/index.js';

const page = readFileSync(new URL('../cli.md', import.meta.url), 'utf8');

/** The part of the page under `## \`<command>\``, up to the next `## `. */
function section(command: string): string {
  const start = page.indexOf(`\n## \`${command}\`\n`);
  expect(
    start,
    `docs/cli.md has no "## \`${command}\`" section`,
  ).toBeGreaterThan(-1);
  const end = page.indexOf('\n## ', start + 1);
  return page.slice(start, end === -1 ? undefined : end);
}

/** The options a page section's tables list, in their first column. */
const pageOptions = (text: string) =>
  [...text.matchAll(/^\| `(--[a-z-]+)/gm)]
    .flatMap((match) => match[1] ?? [])
    .sort();

/** The options a help text lists, one per line, indented. */
const helpOptions = (help: string) =>
  [...help.matchAll(/^ {2,}(--[a-z-]+)/gm)]
    .flatMap((match) => match[1] ?? [])
    .sort();

async function helpOf(
  run: (
    argv: string[],
    io: { out: (line: string) => void; err: (line: string) => void },
  ) => unknown,
) {
  const lines: string[] = [];
  await run(['--help'], {
    out: (line) => lines.push(line),
    err: (line) => lines.push(line),
  });
  return lines.join('\n');
}

it('lists every option of connector-sdk-testing, and no other', async () => {
  const help = await helpOf(runTestingCli);
  expect(helpOptions(help).length).toBeGreaterThan(10);
  expect(pageOptions(section('connector-sdk-testing'))).toEqual(
    helpOptions(help),
  );
});

it('lists both commands of connector-sdk-testing', async () => {
  const help = await helpOf(runTestingCli);
  const commands = [...help.matchAll(/^ {2}connector-sdk-testing (\w+)/gm)].map(
    (match) => match[1],
  );
  const listed = [
    ...section('connector-sdk-testing').matchAll(/^\| `(\w+)` +\|/gm),
  ].map((match) => match[1]);
  expect(listed).toEqual(commands);
});

it('lists every option of create-connector, and no other', async () => {
  const help = await helpOf(runCreateConnector);
  expect(pageOptions(section('create-connector'))).toEqual(helpOptions(help));
});

it("names each of create-connector's templates", () => {
  const row = section('create-connector')
    .split('\n')
    .find((line) => line.startsWith('| `--template'));
  const named = [...(row ?? '').matchAll(/`([a-z0-9-]+)`/g)].flatMap(
    (match) => match[1] ?? [],
  );
  expect(named.filter((name) => !name.startsWith('-')).sort()).toEqual(
    Object.keys(TEMPLATES).sort(),
  );
});
