import { SecretSet } from '../../secrets/secret-forms.js';
import {
  cassetteBody,
  cassetteText,
  readCassetteFile,
  writeCassetteText,
  type CassetteExchange,
  type CassetteHeaders,
  type CassetteRequest,
} from '../cassette-file.js';
import { CassetteLeakError } from '../cassette-errors.js';
import { answerContent, decodeContent } from './decode-content.js';
import { findCassetteLeaks } from '../scrub/find-cassette-leaks.js';
import { scrubExchanges } from '../scrub/scrub-exchanges.js';

/** Answer headers that vary from run to run or describe the bytes on the wire, not the answer: not kept. */
const VOLATILE_RESPONSE = new Set([
  'date',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'connection',
  'keep-alive',
]);

/** Headers as a cassette keeps them, without those named in `drop`. @internal */
export function headersOf(headers: Headers, drop: ReadonlySet<string>): CassetteHeaders {
  const result: Record<string, string | string[]> = {};
  for (const [name, value] of headers)
    if (!drop.has(name) && name !== 'set-cookie') result[name] = value;
  const cookies = headers.getSetCookie();
  if (cookies.length > 0) result['set-cookie'] = cookies;
  return result;
}

/** A request read for a cassette, and the content-encoding its body could not be decoded from, if any. */
export interface ReadRequest {
  readonly request: CassetteRequest;
  readonly undecoded: string | undefined;
}

/**
 * A request as a cassette keeps it, its body decoded from its content-encoding (pass a clone of one still to
 * be sent: its body is read). @internal
 */
export async function readRequest(request: Request): Promise<ReadRequest> {
  const bytes = new Uint8Array(await request.arrayBuffer());
  const encoding = request.headers.get('content-encoding');
  const decoded = bytes.length === 0 ? bytes : decodeContent(bytes, encoding);
  const body = cassetteBody(decoded ?? bytes, request.headers.get('content-type'));
  return {
    request: {
      method: request.method,
      url: request.url,
      headers: headersOf(request.headers, new Set(['content-length'])),
      ...(body && { body }),
    },
    undecoded: decoded === undefined ? (encoding ?? '') : undefined,
  };
}

/** A request as a cassette keeps it (see `readRequest`). @internal */
export async function requestOf(request: Request): Promise<CassetteRequest> {
  return (await readRequest(request)).request;
}

/**
 * The exchanges of a recording, per test and in the order their requests were made, and the secrets to scrub
 * from them; written once, at the end, so that secrets learnt late in the run are scrubbed too, and only once
 * scrubbed and proven clean.
 *
 * @internal
 */
export class CassetteRecorder {
  readonly #recorded = new Map<string, (CassetteExchange | undefined)[]>();
  readonly #touched = new Set<string>();
  readonly #secrets: (() => Iterable<string>)[] = [];
  readonly #pending = new Set<Promise<unknown>>();
  /** Exchanges whose body is in a content-encoding the recorder cannot decode: never written. */
  readonly #undecoded: { section: string; slot: number; side: string; encoding: string }[] = [];
  #section = 'default';

  /** Names the test whose exchanges come next. */
  section(name: string): void {
    this.#section = name;
    this.#touched.add(name);
  }

  /** Adds where secrets come from: read when the recording is written, so those learnt later count. */
  secrets(source: () => Iterable<string>): void {
    this.#secrets.push(source);
  }

  /** Every secret its sources know now. */
  knownSecrets(): string[] {
    const known = new Set<string>();
    for (const source of this.#secrets) for (const value of source()) known.add(value);
    return [...known];
  }

  /**
   * Takes its place in the order now, and the exchange once the answer is read.
   *
   * @param request - the request, read
   * @param response - a copy of the answer, read here
   */
  record(request: Promise<ReadRequest>, response: Response): void {
    const section = this.#section;
    const exchanges = this.#recorded.get(section) ?? [];
    this.#recorded.set(section, exchanges);
    this.#touched.add(section);
    const slot = exchanges.push(undefined) - 1;
    const done = (async () => {
      const bytes = new Uint8Array(await response.arrayBuffer());
      const encoding = response.headers.get('content-encoding');
      const decoded = answerContent(bytes, encoding);
      if (decoded === undefined)
        this.#undecoded.push({ section, slot, side: 'response', encoding: encoding ?? '' });
      const body = cassetteBody(decoded ?? bytes, response.headers.get('content-type'));
      const read = await request;
      if (read.undecoded !== undefined)
        this.#undecoded.push({ section, slot, side: 'request', encoding: read.undecoded });
      exchanges[slot] = {
        request: read.request,
        response: {
          status: response.status,
          headers: headersOf(response.headers, VOLATILE_RESPONSE),
          ...(body && { body }),
        },
      };
    })();
    this.#pending.add(done);
    void done.finally(() => this.#pending.delete(done)).catch(() => undefined);
  }

  /**
   * Scrubs the recording, proves it clean and writes it, keeping the sections of tests it did not record.
   *
   * @throws CassetteLeakError, naming where, when a secret survived (nothing is written)
   */
  async write(path: string): Promise<void> {
    await Promise.allSettled(this.#pending);
    const secrets = new Set<string>();
    for (const source of this.#secrets) for (const value of source()) secrets.add(value);
    const raw: Record<string, CassetteExchange[]> = {};
    for (const [name, exchanges] of this.#recorded) {
      const complete = exchanges.filter((exchange) => exchange !== undefined);
      if (complete.length > 0) raw[name] = complete;
    }
    const { tests, units, refused } = scrubExchanges(raw, secrets);
    const old = await readCassetteFile(path);
    const kept = Object.fromEntries(
      Object.entries(old?.tests ?? {}).filter(([name]) => !this.#touched.has(name)),
    );
    const file = { version: 1 as const, tests: { ...kept, ...tests } };
    const set = new SecretSet();
    for (const unit of units) set.add(unit);
    const leaks = this.#undecoded.map(({ section, slot, side, encoding }) => {
      const { method, url } = this.#recorded.get(section)?.[slot]?.request ?? {
        method: '',
        url: '',
      };
      const path = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*([^?#]*)/i.exec(url)?.[1] || '/';
      return (
        `test "${section}", exchange ${slot + 1} (${method} ${set.mask(path)}): the ${side} body's ` +
        `content-encoding ${encoding} cannot be decoded, so it could be neither scrubbed nor checked`
      );
    });
    leaks.push(...refused, ...findCassetteLeaks(file, units));
    const text = cassetteText(file);
    if (leaks.length === 0 && set.size > 0 && set.leaksIn(text)) leaks.push('the file as written');
    if (leaks.length > 0)
      throw new CassetteLeakError(
        `The cassette ${path} was not written: a secret survived scrubbing.\n  ${leaks.join('\n  ')}\n` +
          'Mark the value secret where it comes from (secret(), addSecret, a sensitive field) or give it in `secrets`.',
      );
    await writeCassetteText(path, text);
  }
}
