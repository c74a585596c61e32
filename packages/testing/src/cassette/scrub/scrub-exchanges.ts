import { isUtf8 } from 'node:buffer';
import { secretForms } from '@connector-sdk/core';
import { Redactor } from '@connector-sdk/core/internal';
import type { CassetteBody, CassetteExchange, CassetteHeaders } from '../cassette-file.js';
import { compressedFormat, inflatedFile } from './compressed-file.js';
import {
  URL_HEADER,
  credentialPairs,
  credentialSpans,
  isCredentialName,
  isFormText,
  secretUnits,
} from './secret-units.js';

// Replaces every secret of a recording by a numbered placeholder before anything is written, since a cassette
// is committed beside the code (ARCHITECTURE.md, D23). Each
// unit is found in every form the SDK's redactor recognises: the spellings `secretForms` of core lists
// (encodings, Bearer and Basic parts), then whatever the runtime's redactor itself finds, through the views it
// reads a text in (escapes of every family, another case, NFKC and NFD, characters that do not show, line
// breaks), so that a cassette keeps nothing a log line would not; placeholders are numbered in order of first appearance, so re-recording the same calls writes
// the same file. A private-use character marks a unit while the text is scrubbed: no secret form contains one,
// and a short secret's form cannot match inside a mark, as it could inside a number.

const MARK_OPEN = '\uE000';
const MARK_CLOSE = '\uE001';
const MARK = /\uE000(.)\uE001/gsu;

/** The placeholder of the `n`th secret of a cassette. */
export const placeholder = (n: number): string => `{{secret:${n}}}`;

/** A form and the unit it stands for. */
interface Form {
  readonly text: string;
  readonly unit: number;
  readonly standalone: RegExp | undefined;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

class Scrubber {
  readonly #units: string[] = [];
  /** Units found only where they stand in a credential header: too short to search for anywhere else. */
  readonly #inPlace = new Set<number>();
  #forms: Form[] | undefined;
  /** The forms as the latin1 view of their UTF-8 bytes, for binary bodies. */
  #byteForms: Form[] | undefined;
  /** A redactor for each unit searched everywhere, longest unit first. */
  #finders: [number, Redactor][] | undefined;

  unit(value: string, everywhere = true): number {
    let index = this.#units.indexOf(value);
    if (index === -1) {
      index = this.#units.push(value) - 1;
      if (!everywhere) this.#inPlace.add(index);
      this.#forms = this.#byteForms = this.#finders = undefined;
    } else if (everywhere && this.#inPlace.delete(index)) {
      this.#forms = this.#byteForms = this.#finders = undefined;
    }
    return index;
  }

  /** The units searched for everywhere. */
  units(): string[] {
    return this.#units.filter((_, index) => !this.#inPlace.has(index));
  }

  mark(index: number): string {
    return `${MARK_OPEN}${String.fromCharCode(0xe100 + index)}${MARK_CLOSE}`;
  }

  #allForms(bytes = false): Form[] {
    if (bytes)
      return (this.#byteForms ??= this.#allForms().map((form) => {
        const text = Buffer.from(form.text, 'utf8').toString('latin1');
        return {
          ...form,
          text,
          standalone:
            form.standalone && new RegExp(`(?<![A-Za-z0-9])${escape(text)}(?![A-Za-z0-9])`, 'g'),
        };
      }));
    if (this.#forms) return this.#forms;
    const forms: Form[] = [];
    this.#units.forEach((unit, index) => {
      if (this.#inPlace.has(index)) return;
      const { anywhere, standalone } = secretForms(unit);
      for (const text of anywhere) forms.push({ text, unit: index, standalone: undefined });
      for (const text of standalone)
        forms.push({
          text,
          unit: index,
          standalone: new RegExp(`(?<![\\p{L}\\p{N}])${escape(text)}(?![\\p{L}\\p{N}])`, 'gu'),
        });
    });
    forms.sort((a, b) => b.text.length - a.text.length);
    return (this.#forms = forms);
  }

  text(text: string, bytes = false): string {
    let scrubbed = text;
    for (const form of this.#allForms(bytes)) {
      if (!scrubbed.includes(form.text)) continue;
      scrubbed = form.standalone
        ? scrubbed.replace(form.standalone, this.mark(form.unit))
        : scrubbed.split(form.text).join(this.mark(form.unit));
    }
    return bytes ? scrubbed : this.#found(scrubbed);
  }

  /** The text with what the runtime's redactor finds of each unit marked: the spellings no list holds. */
  #found(text: string): string {
    this.#finders ??= this.units()
      .map((unit) => [this.#units.indexOf(unit), new Redactor([unit])] as [number, Redactor])
      .sort(([a], [b]) => (this.#units[b] as string).length - (this.#units[a] as string).length);
    let scrubbed = text;
    for (const [unit, redactor] of this.#finders) {
      const ranges = redactor.find(scrubbed);
      if (ranges.length === 0) continue;
      let marked = '';
      let end = 0;
      for (const [start, stop] of ranges) {
        marked += scrubbed.slice(end, start) + this.mark(unit);
        end = stop;
      }
      scrubbed = marked + scrubbed.slice(end);
    }
    return scrubbed;
  }

  /** A credential-named field's or pair's value, whatever it is: one unit, marked in place. */
  whole(value: string): string {
    return this.mark(this.unit(value, value.length >= 4));
  }

  value(value: unknown): unknown {
    if (typeof value === 'string') return this.text(value);
    if (Array.isArray(value)) return value.map((item) => this.value(item));
    if (typeof value === 'object' && value !== null)
      return Object.fromEntries(
        Object.entries(value).map(([key, item]) => [
          this.text(key),
          typeof item === 'string' && item !== '' && isCredentialName(key)
            ? this.whole(item)
            : this.value(item),
        ]),
      );
    return value;
  }

  /** A URL or form-encoded text: each credential-named pair's value marked in place, then the rest as text. */
  pairs(text: string): string {
    let result = '';
    let at = 0;
    for (const { start, end, value } of credentialPairs(text)) {
      result += text.slice(at, start) + this.whole(value);
      at = end;
    }
    return this.text(result + text.slice(at));
  }
}

/** A binary body while it is scrubbed: its bytes as latin1 text (one character a byte), marks and all. */
interface MarkedBytes {
  readonly latin1: string;
}

function scrubBody(
  body: CassetteBody,
  headers: CassetteHeaders,
  scrubber: Scrubber,
): CassetteBody | MarkedBytes {
  // Bytes are searched for the UTF-8 bytes of each form: a secret in a text part of an upload, say. Bytes that
  // are UTF-8 text are scrubbed as text too, in every view the redactor reads.
  if ('base64' in body) return { latin1: scrubBytes(Buffer.from(body.base64, 'base64'), scrubber) };
  if ('json' in body) return { json: scrubber.value(body.json) };
  if (isFormText(body.text, headers['content-type'])) return { text: scrubber.pairs(body.text) };
  return { text: scrubber.text(body.text) };
}

/** Marks are private-use characters: a text that holds some of its own is searched as bytes only. */
const PRIVATE_USE = /[\uE000-\uF8FF]/;

/** Bytes scrubbed as latin1 (one character a byte), marks and all. */
function scrubBytes(bytes: Buffer, scrubber: Scrubber): string {
  const text = isUtf8(bytes) ? bytes.toString('utf8') : undefined;
  if (text === undefined || PRIVATE_USE.test(text))
    return scrubber.text(bytes.toString('latin1'), true);
  const scrubbed = scrubber.text(text);
  // Back to bytes between the marks, which stay characters until they are numbered.
  return scrubbed.replace(/[^\uE000-\uF8FF]+/g, (plain) =>
    Buffer.from(plain, 'utf8').toString('latin1'),
  );
}

/**
 * Why a compressed file body cannot be kept, if it cannot: a format the recorder cannot read, or a gzip file
 * that holds a secret, which rewriting its compressed bytes would not keep as the end system sent them.
 */
function compressedRefusal(body: CassetteBody | undefined, scrubber: Scrubber): string | undefined {
  if (body === undefined || !('base64' in body)) return undefined;
  const bytes = Buffer.from(body.base64, 'base64');
  const format = compressedFormat(bytes);
  if (format === undefined) return undefined;
  const inner = inflatedFile(bytes, format);
  if (inner === undefined)
    return `is a ${format} file, whose compressed bytes the recorder cannot scan for secrets`;
  if (scrubBytes(inner, scrubber) !== inner.toString('latin1'))
    return `is a ${format} file that holds a secret, which a cassette cannot scrub from compressed bytes`;
  return undefined;
}

/**
 * A header's value, scrubbed as any text, then each credential part that holds no known secret replaced by a
 * unit of its own, whatever its length: a short one only there, since it would match everywhere.
 */
function scrubCredentials(name: string, value: string, scrubber: Scrubber): string {
  const text = scrubber.text(value);
  let result = '';
  let at = 0;
  for (const [start, end] of credentialSpans(name, text)) {
    const part = text.slice(start, end);
    const marked = part.includes(MARK_OPEN);
    result +=
      text.slice(at, start) +
      (marked ? part : scrubber.mark(scrubber.unit(part, part.length >= 4)));
    at = end;
  }
  return result + text.slice(at);
}

function scrubHeaders(headers: CassetteHeaders, scrubber: Scrubber): CassetteHeaders {
  const scrubbed: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    const one = (item: string) =>
      isCredentialName(name)
        ? scrubCredentials(name, item, scrubber)
        : URL_HEADER.has(name)
          ? scrubber.pairs(item)
          : scrubber.text(item);
    scrubbed[name] = typeof value === 'string' ? one(value) : value.map(one);
  }
  return scrubbed;
}

/** Registers the values of credential-named query parameters (`api_key=…`, `token=…`), as core's client does. */
function learnQuery(url: string, scrubber: Scrubber): void {
  const mark = url.indexOf('?');
  if (mark === -1) return;
  for (const [name, value] of new URLSearchParams(url.slice(mark + 1)))
    if (isCredentialName(name) && value.length >= 4) scrubber.unit(value);
}

/** Registers a credential field's value (and its credential parts), so it is scrubbed everywhere. */
function learnValue(value: string, scrubber: Scrubber): void {
  if (value.length < 4) return;
  scrubber.unit(value);
  for (const unit of secretUnits(value)) if (unit.length >= 4) scrubber.unit(unit);
}

/** Registers the values of credential-named JSON fields and pairs of a form-encoded body, at any depth. */
function learnBody(body: CassetteBody | undefined, headers: CassetteHeaders, scrubber: Scrubber) {
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === 'object' && value !== null)
      for (const [key, item] of Object.entries(value))
        if (typeof item === 'string' && isCredentialName(key)) learnValue(item, scrubber);
        else walk(item);
  };
  if (body && 'json' in body) walk(body.json);
  if (body && 'text' in body && isFormText(body.text, headers['content-type']))
    for (const { value } of credentialPairs(body.text)) learnValue(value, scrubber);
}

/** Registers the credential parts that secret-named headers carry, so they are scrubbed everywhere. */
function learnHeaders(headers: CassetteHeaders, scrubber: Scrubber): void {
  for (const [name, value] of Object.entries(headers)) {
    if (URL_HEADER.has(name))
      for (const item of typeof value === 'string' ? [value] : value)
        for (const pair of credentialPairs(item)) learnValue(pair.value, scrubber);
    if (!isCredentialName(name)) continue;
    for (const item of typeof value === 'string' ? [value] : value)
      for (const [start, end] of credentialSpans(name, item))
        if (end - start >= 4)
          for (const unit of secretUnits(item.slice(start, end))) scrubber.unit(unit);
  }
}

/**
 * Replaces every secret in a recording by a placeholder: each value in `secrets` (and its credential parts),
 * in every form the redactor recognises, in URLs, headers (names and values) and bodies (JSON keys and values,
 * text, bytes); and the credential of every `Authorization`, `Cookie`, `Set-Cookie` and other credential-named
 * header, and the value of every credential-named JSON field, form field and query parameter (of the URL or a
 * `Location`) whatever its case and separators (`accessToken`, `refresh_token`, `CLIENT-SECRET`) and whatever
 * its value, which then counts as a secret everywhere else too.
 *
 * A body that is a compressed file (gzip, zip, …: by its first bytes) is kept only when the recorder can read
 * it and it holds no secret; otherwise the exchange is named in `refused`, and the recording must not be
 * written.
 *
 * @param tests - each test's raw exchanges
 * @param secrets - what the requests knew as secret
 * @returns the same exchanges, scrubbed, every value that counted as a secret (for the proof), and why each
 *   compressed body that cannot be kept cannot
 * @internal
 */
export function scrubExchanges(
  tests: Readonly<Record<string, readonly CassetteExchange[]>>,
  secrets: Iterable<string>,
): { tests: Record<string, CassetteExchange[]>; units: string[]; refused: string[] } {
  const scrubber = new Scrubber();
  for (const secret of secrets) for (const unit of secretUnits(secret)) scrubber.unit(unit);
  for (const exchanges of Object.values(tests))
    for (const { request, response } of exchanges) {
      learnQuery(request.url, scrubber);
      for (const pair of credentialPairs(request.url)) learnValue(pair.value, scrubber);
      learnHeaders(request.headers, scrubber);
      learnHeaders(response.headers, scrubber);
      learnBody(request.body, request.headers, scrubber);
      learnBody(response.body, response.headers, scrubber);
    }
  const refused: string[] = [];
  for (const [name, exchanges] of Object.entries(tests))
    exchanges.forEach(({ request, response }, index) => {
      for (const [side, body] of [
        ['request', request.body],
        ['response', response.body],
      ] as const) {
        const why = compressedRefusal(body, scrubber);
        if (why !== undefined)
          refused.push(
            `test "${name}", exchange ${index + 1} (${request.method}): the ${side} body ${why}`,
          );
      }
    });
  const marked: Record<string, unknown[]> = {};
  for (const [name, exchanges] of Object.entries(tests))
    marked[name] = exchanges.map(({ request, response }) => ({
      request: {
        method: request.method,
        url: scrubber.pairs(request.url),
        headers: scrubHeaders(request.headers, scrubber),
        ...(request.body && { body: scrubBody(request.body, request.headers, scrubber) }),
      },
      response: {
        status: response.status,
        headers: scrubHeaders(response.headers, scrubber),
        ...(response.body && { body: scrubBody(response.body, response.headers, scrubber) }),
      },
    }));
  // Numbered in order of first appearance in the file as it will be written (sections by name).
  const numbers = new Map<string, number>();
  const number = (text: string) =>
    text.replace(MARK, (_, unit: string) => {
      let n = numbers.get(unit);
      if (n === undefined) numbers.set(unit, (n = numbers.size + 1));
      return placeholder(n);
    });
  const result = JSON.parse(
    number(
      JSON.stringify(
        Object.fromEntries(
          Object.keys(marked)
            .sort()
            .map((k) => [k, marked[k]]),
        ),
      ),
    ),
  ) as Record<string, CassetteExchange[]>;
  for (const exchanges of Object.values(result))
    for (const { request, response } of exchanges)
      for (const side of [request, response] as { body?: CassetteBody | MarkedBytes }[])
        if (side.body && 'latin1' in side.body)
          side.body = { base64: Buffer.from(side.body.latin1, 'latin1').toString('base64') };
  return { tests: result, units: [...new Set([...secrets].concat(scrubber.units()))], refused };
}
