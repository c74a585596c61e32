import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

// What a cassette file holds (ARCHITECTURE.md, D23): the end-system exchanges of each test, in order,
// secrets already replaced by placeholders. JSON, one file per suite (a test file, or a conformance run) with a section per
// test: a suite's recordings stay in one reviewable file, and a test replays from its own section whatever
// other tests ran before it (`-t` picks one).

/**
 * A body as a cassette holds it: parsed JSON when it was JSON, else its text, else its bytes in base64.
 *
 * @example
 * ```ts
 * const body: CassetteBody = { json: { username: 'alice', password: '{{secret:1}}' } };
 * ```
 */
export type CassetteBody =
  { readonly json: unknown } | { readonly text: string } | { readonly base64: string };

/**
 * Headers as a cassette holds them: lower-case names; `set-cookie` may hold several values.
 *
 * @example
 * ```ts
 * const headers: CassetteHeaders = { authorization: 'Bearer {{secret:2}}', 'set-cookie': ['sid={{secret:3}}; Path=/'] };
 * ```
 */
export type CassetteHeaders = Readonly<Record<string, string | readonly string[]>>;

/**
 * A request the connector sent to its end system.
 *
 * @example
 * ```ts
 * const request: CassetteRequest = { method: 'GET', url: 'https://acme.example/issues?q=open', headers: {} };
 * ```
 */
export interface CassetteRequest {
  /** HTTP method, upper-case. */
  readonly method: string;
  /** The whole URL, secrets replaced. */
  readonly url: string;
  readonly headers: CassetteHeaders;
  readonly body?: CassetteBody;
}

/**
 * What the end system answered.
 *
 * @example
 * ```ts
 * const response: CassetteResponse = { status: 200, headers: {}, body: { json: { token: '{{secret:2}}' } } };
 * ```
 */
export interface CassetteResponse {
  readonly status: number;
  readonly headers: CassetteHeaders;
  readonly body?: CassetteBody;
}

/**
 * One exchange: a request and its answer.
 *
 * @example
 * ```ts
 * const file: CassetteFile = JSON.parse(await readFile('test/cassettes/acme.json', 'utf8'));
 * const first: CassetteExchange | undefined = file.tests['lists issues']?.[0];
 * ```
 */
export interface CassetteExchange {
  readonly request: CassetteRequest;
  readonly response: CassetteResponse;
}

/**
 * A cassette file's content.
 *
 * @example
 * ```ts
 * const file: CassetteFile = JSON.parse(await readFile('test/cassettes/acme.json', 'utf8'));
 * Object.keys(file.tests); // the tests recorded
 * ```
 */
export interface CassetteFile {
  /** The format's version. */
  readonly version: 1;
  /** Each test's exchanges, by the test's name, in the order they were made. */
  readonly tests: Readonly<Record<string, readonly CassetteExchange[]>>;
}

/** Whether a text starts like JSON a body would hold (an object or an array). */
const JSONISH = /^\s*[[{]/;

/**
 * A body for the cassette: JSON kept parsed so a diff of the file reads like the API, text as text, the rest in
 * base64. `undefined` when there is no body.
 */
export function cassetteBody(
  bytes: Uint8Array,
  contentType: string | null,
): CassetteBody | undefined {
  if (bytes.length === 0) return undefined;
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  const roundTrips = Buffer.from(text, 'utf8').equals(Buffer.from(bytes));
  if (!roundTrips) return { base64: Buffer.from(bytes).toString('base64') };
  if (JSONISH.test(text) || /json/i.test(contentType ?? '')) {
    try {
      return { json: JSON.parse(text) as unknown };
    } catch {
      // Not JSON after all: kept as text.
    }
  }
  return { text };
}

/** The text of a cassette body (JSON serialised compactly), or its bytes. */
export function bodyContent(body: CassetteBody | undefined): string | Uint8Array | undefined {
  if (body === undefined) return undefined;
  if ('json' in body) return JSON.stringify(body.json);
  if ('text' in body) return body.text;
  return Buffer.from(body.base64, 'base64');
}

/**
 * Reads a cassette file.
 *
 * @returns its content; `undefined` when there is no such file
 * @throws Error when the file is not a cassette
 */
export async function readCassetteFile(path: string): Promise<CassetteFile | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const parsed = JSON.parse(text) as Partial<CassetteFile>;
  if (parsed.version !== 1 || typeof parsed.tests !== 'object' || parsed.tests === null)
    throw new Error(`${path} is not a cassette (version 1 with "tests")`);
  return parsed as CassetteFile;
}

/** Writes a cassette file whole, through a temporary file, so a failed write leaves the old one. */
export async function writeCassetteText(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, text);
  await rename(temporary, path);
}

/** The text of a cassette file: JSON, two spaces, sections in name order for stable diffs. */
export function cassetteText(file: CassetteFile): string {
  const tests = Object.fromEntries(
    Object.keys(file.tests)
      .sort()
      .map((name) => [name, file.tests[name]]),
  );
  return `${JSON.stringify({ version: 1, tests }, null, 2)}\n`;
}
