import { isUtf8 } from 'node:buffer';
import { FormMatcher, StandaloneMatcher } from './form-matcher.js';
/** What replaces a secret, or a form derived from it, in error bodies and log lines. */
export const REDACTED = '[REDACTED]';

/**
 * Shortest form searched for wherever it occurs. A shorter secret (a PIN, a CVV, a one-letter password) is
 * searched for only where it stands alone: replacing it inside words would blank out ordinary text (a one-letter
 * password would redact every "e"). No SDK message ever contains a value of any length.
 */
export const MIN_SECRET_LENGTH = 4;

/**
 * Most characters of secret forms one request may have: judged first as {@link FORMS_PER_SECRET} per secret and
 * {@link FORMS_PER_CHARACTER} per character (about 6,000 characters of secrets: two 2,000-character JWTs and
 * dozens of passwords; at most 250 secrets), then counted as the forms are made (values that need escaping
 * make more). Past it, texts are redacted whole (see {@link Redactor}).
 */
export const MAX_FORM_CHARACTERS = 200_000;

/** Longest string kept in a logged value; longer ones are redacted, then clipped, so the cost stays bounded. */
const MAX_LOGGED_STRING = 8_192;

/**
 * What each secret costs besides its characters, in characters of forms: making its forms takes about as long
 * as 800 characters of them, whatever its length, so that a thousand one-character secrets (a body built to
 * cost CPU) are over budget too. At most 250 secrets fit.
 */
const FORMS_PER_SECRET = 800;

/**
 * What one character of a secret costs in forms, at most: its encodings (about 17, some up to three times as
 * long) for the value and for each part of a credential (a `Bearer` token, a `Basic` user:password and
 * password).
 */
const FORMS_PER_CHARACTER = 32;

/**
 * What one character that some encoding escapes costs on top: every URL set and each way the URL parser keeps
 * a value writes it as up to nine characters (a value of 6,000 such characters made a million characters of
 * forms, 60 ms of CPU).
 */
const FORMS_PER_ESCAPED_CHARACTER = 128;

/** Whether some encoding escapes a character: all but `A-Z`, `a-z`, `0-9`, `.`, `_` and `-`. */
const isEscaped = (code: number): boolean =>
  !(
    (code >= 0x61 && code <= 0x7a) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x30 && code <= 0x39) ||
    code === 0x2e ||
    code === 0x5f ||
    code === 0x2d
  );

/**
 * The budget a secret takes, judged before any form is made. The escaped characters are counted in a loop: a
 * regular expression's array of matches was most of the cost of adding a secret (issue 18).
 */
function estimateOf(value: string): number {
  let escaped = 0;
  for (let i = 0; i < value.length; i++) if (isEscaped(value.charCodeAt(i))) escaped++;
  return (
    FORMS_PER_SECRET + value.length * FORMS_PER_CHARACTER + escaped * FORMS_PER_ESCAPED_CHARACTER
  );
}

/** Header names whose values are treated as secret whatever the connector declares. */
const SECRET_HEADER_NAME = /authorization|cookie|token|secret|passw(or)?d|api[-_]?key|credential/i;

/**
 * Whether a header or parameter name looks like it carries a credential.
 *
 * @internal
 */
export function looksSecret(name: string): boolean {
  if (name.length > MAX_JUDGED_NAME_LENGTH) return SECRET_HEADER_NAME.test(name);
  let secret = judgedNames.get(name);
  if (secret === undefined) {
    secret = SECRET_HEADER_NAME.test(name);
    if (judgedNames.size < MAX_JUDGED_NAMES) judgedNames.set(name, secret);
  }
  return secret;
}

/**
 * Names already judged by {@link looksSecret}: every request has its header names and entry keys judged, and
 * they are nearly always the same few (issue 8). Clients choose the names, so only short ones are kept, and
 * only so many: at most 1,024 × 64 characters, where keeping any name would let a client pin a megabyte per
 * name for the life of the process.
 */
const judgedNames = new Map<string, boolean>();
const MAX_JUDGED_NAMES = 1_024;
const MAX_JUDGED_NAME_LENGTH = 64;

const base64 = (bytes: Buffer): string => bytes.toString('base64');
const base64url = (bytes: Buffer): string => bytes.toString('base64url');

/**
 * The base64 characters that encode `bytes` wherever they sit inside a longer encoded string: for each of
 * the three byte alignments, the characters whose six bits all come from `bytes`. This catches a password
 * inside `Basic base64(user:password)` without knowing the user name.
 */
function base64Cores(bytes: Buffer): string[] {
  const cores: string[] = [];
  for (let pad = 0; pad < 3; pad++) {
    const encoded = base64(Buffer.concat([Buffer.alloc(pad), bytes]));
    const first = Math.ceil((8 * pad) / 6);
    const last = Math.floor((8 * (pad + bytes.length)) / 6); // exclusive
    const core = encoded.slice(first, last);
    if (core.length >= MIN_SECRET_LENGTH)
      cores.push(core, core.replaceAll('+', '-').replaceAll('/', '_'));
  }
  return cores;
}

/**
 * The WHATWG URL percent-encode sets (https://url.spec.whatwg.org/#percent-encoded-bytes), beyond C0 controls
 * and non-ASCII, which every set encodes: what `new URL()` writes for a value concatenated into a URL's
 * fragment, query, path or user info (issue 16, finding 5: `P@ss w0rd!` in a path is `P@ss%20w0rd!`).
 */
const URL_SETS: readonly string[] = [
  ' "<>`', // fragment
  ' "#<>', // query
  ' "#<>\'', // special query (http, https)
  ' "#<>?^`{}', // path
  ' "#<>?`{}', // path before ^ joined the set (2024): Node 20's parser leaves it
  ' "#<>?^`{}/:;=@[\\]|', // user info
];

/** The characters some URL set escapes and another does not. */
const URL_SET_CHARACTERS = /["#<>`'?^{}/:;=@[\\\]|]/g;

/** `%XX` for every ASCII code, upper-case hex as the URL parser writes it. */
const ESCAPES = Array.from(
  { length: 128 },
  (_, code) => `%${code.toString(16).toUpperCase().padStart(2, '0')}`,
);

/** Per URL set, which ASCII codes it escapes: C0 controls, space and DEL always, and the set's own. */
const SET_TABLES = URL_SETS.map((set) => {
  const table = new Uint8Array(128);
  for (let code = 0; code <= 0x20; code++) table[code] = 1;
  table[0x7f] = 1;
  for (const char of set) table[char.charCodeAt(0)] = 1;
  return table;
});

/**
 * A value percent-encoded as the URL parser encodes it with one set: ASCII by the set's table, everything else
 * as its UTF-8 bytes (`encodeURIComponent` of each run). One pass in a loop: undoing `encodeURIComponent`'s
 * extra escapes with a callback per escape cost most of a request's redaction for values full of them.
 *
 * @param value - a well-formed string (no lone surrogate, which encodeURIComponent refuses)
 */
function percentEncode(value: string, table: Uint8Array): string {
  let out = '';
  let run = -1; // start of a run of non-ASCII characters
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code >= 0x80) {
      if (run === -1) run = i;
      continue;
    }
    if (run !== -1) {
      out += encodeURIComponent(value.slice(run, i));
      run = -1;
    }
    out += table[code] === 1 ? (ESCAPES[code] as string) : value.charAt(i);
  }
  if (run !== -1) out += encodeURIComponent(value.slice(run));
  return out;
}

/**
 * The value as the URL parser keeps it when it is concatenated into a URL: the parser drops every tab and
 * newline, and the control characters and spaces at either end of the whole URL, where a secret often sits
 * (`items/${secret}`).
 */
function urlKept(value: string): string[] {
  const kept = new Set([value]);
  const flat = value.replace(/[\t\n\r]/g, '');
  kept.add(flat);
  // eslint-disable-next-line no-control-regex -- the C0 controls are what the URL parser drops
  kept.add(flat.replace(/[\u0000-\u0020]+$/, ''));
  // eslint-disable-next-line no-control-regex -- as above
  kept.add(flat.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, ''));
  kept.delete('');
  return [...kept];
}

/** JSON escapes with every non-ASCII character written `\uXXXX`, in both cases, as some serialisers write it. */
function asciiJson(json: string): string[] {
  if (!/[\u0080-\uffff]/.test(json)) return [];
  const escape = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
  const lower = json.replace(/[\u0080-\uffff]/g, escape);
  return [lower, lower.replace(/\\u([0-9a-f]{4})/g, (_, hex: string) => `\\u${hex.toUpperCase()}`)];
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * What writing one character of a URL-set form costs, in characters of the budget: a value with spaces or
 * controls at its ends makes up to 24 of these forms, each written character by character.
 */
const URL_SET_WORK = 3;

/** How one value can be written as text: as is; URL-, form- and WHATWG-URL-encoded; JSON- and HTML-escaped. */
function textEncodings(value: string, work: { total: number } = { total: 0 }): string[] {
  // Characters no encoding escapes: every URL, form and JSON form is the value itself.
  if (/^[A-Za-z0-9._-]*$/.test(value)) return [value];
  // The value as the encoders can take it: a lone surrogate becomes U+FFFD, as in UTF-8 (encodeURIComponent
  // throws on one).
  const usv = LONE_SURROGATE.test(value) ? Buffer.from(value, 'utf8').toString('utf8') : value;
  const json = JSON.stringify(value).slice(1, -1);
  const uri = encodeURIComponent(usv);
  const form = uri.replaceAll('%20', '+');
  return [
    value,
    uri,
    form,
    // `URLSearchParams` (a query built by the client or fetch) escapes more than encodeURIComponent: `!'()~`, which
    // are all it adds.
    form.replace(/[!'()~]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`),
    ...urlKept(usv).flatMap((kept) => {
      const component = kept === usv ? uri : encodeURIComponent(kept);
      // Only printable ASCII escapes (and ') tell the sets apart: without them, every set writes the value as
      // encodeURIComponent does.
      if (!/%[2-7][0-9A-F]/.test(component) && !kept.includes("'")) return [component];
      // Sets that escape the same characters of this value write it alike: encode once per distinct choice.
      const present = [...new Set(kept.match(URL_SET_CHARACTERS))];
      const choices = new Map<string, string>();
      URL_SETS.forEach((set, index) => {
        const choice = present.filter((char) => set.includes(char)).join('');
        if (choices.has(choice)) return;
        const encoded = percentEncode(kept, SET_TABLES[index] as Uint8Array);
        work.total += (URL_SET_WORK - 1) * encoded.length;
        choices.set(choice, encoded);
      });
      return [...choices.values()];
    }),
    json,
    ...asciiJson(json),
    ...htmlEscaped(value),
  ];
}

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** The value as HTML templates escape it (`&amp;`, `&lt;`, `&#39;` or `&#x27;`): an end system's error page. */
function htmlEscaped(value: string): string[] {
  if (!/[&<>"']/.test(value)) return [];
  const escaped = value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
  return escaped.includes('&#39;') ? [escaped, escaped.replaceAll('&#39;', '&#x27;')] : [escaped];
}

/** How one value's bytes can be written: base64 and base64url, alone and inside longer base64; hex. */
function byteEncodings(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const hex = bytes.toString('hex');
  return [base64(bytes), base64url(bytes), ...base64Cores(bytes), hex, hex.toUpperCase()];
}

/**
 * The forms of one secret the SDK looks for in every text it sends or logs.
 *
 * - `anywhere`: forms of at least {@link MIN_SECRET_LENGTH} characters, replaced wherever they occur.
 * - `standalone`: the text forms of a shorter secret (or of a short part of one, such as the password of
 *   `Basic base64(user:pw)`), replaced only where no letter or digit touches them, so that the PIN `42` is
 *   hidden in `PIN 42 refused` and `pin=42&`, and `port 8042` is left alone.
 */
export interface SecretForms {
  readonly anywhere: readonly string[];
  readonly standalone: readonly string[];
}

/**
 * Every form of a secret that can end up in a message: the encodings of the value, and of the parts a
 * credential is made of (the token of `Bearer <token>`, the `user:password` and password of `Basic`), since
 * connector code sends those parts on, for example as a query parameter an end system echoes (issue 9). The
 * conformance kit's leak check looks for the same forms.
 *
 * @param value - a secret
 * @returns its forms, each once
 * @example
 * ```ts
 * const { anywhere } = secretForms('p@ss w0rd');
 * anywhere.includes('p%40ss%20w0rd'); // true
 * ```
 */
export function secretForms(value: string): SecretForms {
  const { anywhere, standalone } = formsOf(value);
  return { anywhere, standalone };
}

/** {@link secretForms}, and how many characters making them wrote (duplicates included): what they cost. */
function formsOf(value: string): SecretForms & { readonly work: number } {
  const parts = [value];
  const basic = /^basic\s+([A-Za-z0-9+/=_-]+)$/i.exec(value);
  if (basic?.[1]) {
    // Only a real `user:password` in UTF-8: any other base64 would add forms made of noise, at a cost the
    // caller chooses (issue 16, finding 4).
    const bytes = Buffer.from(basic[1], 'base64');
    const decoded = bytes.toString('utf8');
    if (isUtf8(bytes) && decoded.includes(':'))
      parts.push(decoded, decoded.slice(decoded.indexOf(':') + 1));
  }
  // `Bearer <token>`: the token as connector code cuts it off, after one space or all of them, newlines kept.
  const scheme = /^[A-Za-z][A-Za-z0-9_-]*\s([\s\S]+)$/.exec(value);
  if (scheme?.[1]) parts.push(scheme[1], scheme[1].trimStart());
  const anywhere = new Set<string>();
  const standalone = new Set<string>();
  const work = { total: 0 };
  for (const part of new Set(parts)) {
    if (part === '') continue;
    if (part.length < MIN_SECRET_LENGTH) {
      // Base64 and hex of a short value are a handful of characters of noise: only its text forms count.
      for (const form of textEncodings(part, work)) {
        standalone.add(form);
        work.total += form.length;
      }
      continue;
    }
    for (const form of [...textEncodings(part, work), ...byteEncodings(part)]) {
      if (form.length >= MIN_SECRET_LENGTH) anywhere.add(form);
      work.total += form.length;
    }
  }
  return { anywhere: [...anywhere], standalone: [...standalone], work: work.total };
}

/**
 * Most `forms × characters` searched form by form with `indexOf` (fast for the usual short message); past it,
 * the automaton, whose one pass costs the text's length whatever the forms.
 */
const DIRECT_SEARCH_WORK = 200_000;

/** Every stretch of `text` some form covers, merged where they overlap, in order. */
function searchEach(forms: readonly string[], text: string): [number, number][] {
  const found: [number, number][] = [];
  for (const form of forms) {
    if (form.length > text.length) continue;
    let last: [number, number] | undefined;
    for (let at = text.indexOf(form); at !== -1; at = text.indexOf(form, at + 1)) {
      // Overlapping matches of one form extend one range: `aaaa` against a text of `a`s is one range, not one
      // per position (thousands of ranges to sort cost tens of milliseconds).
      if (last !== undefined && at <= last[1]) last[1] = at + form.length;
      else found.push((last = [at, at + form.length]));
    }
  }
  return merge(found);
}

/** The ranges sorted and merged where they overlap. */
function merge(found: [number, number][]): [number, number][] {
  found.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const range of found) {
    const last = merged[merged.length - 1];
    if (last !== undefined && range[0] < last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push(range);
  }
  return merged;
}

/** The matcher of a request without short secrets: shared, since making one per request cost more than a 401. */
const NO_STANDALONE_FORMS = new StandaloneMatcher([]);

/**
 * Replaces secrets, and the forms derived from them, in text and in values about to be logged.
 *
 * @internal used by the handler; connector code gets a redacting logger instead
 */
export class Redactor {
  readonly #secrets = new Set<string>();
  /** Secrets whose forms are not made yet: forms are made when a text is first redacted, and only once. */
  #pending: string[] = [];
  /** Made with the first forms: most requests never redact a text (two sets less per request, issue 18). */
  #anywhere: Set<string> | undefined;
  #forms: string[] = [];
  #matcher: FormMatcher | undefined;
  #standaloneForms: Set<string> | undefined;
  /** The forms of short secrets, found where they stand alone. */
  #standalone = NO_STANDALONE_FORMS;
  /** How far past a cut a form (and the character that tells whether a short one stands alone) may reach. */
  #reach = 0;
  /** The shortest text that can hold a form. */
  #shortest = MIN_SECRET_LENGTH;
  /** Set when the forms of this request's secrets exceed {@link MAX_FORM_CHARACTERS}. */
  #overwhelmed = false;
  /** The forms' size as judged from the secrets added so far. */
  #estimate = 0;
  /** What making the forms has written so far. */
  #made = 0;

  /** @param secrets - initial secret values; empty strings are ignored */
  constructor(secrets?: Iterable<string>) {
    if (secrets !== undefined) for (const value of secrets) this.add(value);
  }

  /** Adds a secret value. */
  add(value: string): void {
    // Past the budget every text is redacted whole: nothing more to remember, nor to hash (a 1 MiB body of
    // secrets took milliseconds just to put in the set).
    if (value === '' || this.#overwhelmed || this.#secrets.has(value)) return;
    this.#estimate += estimateOf(value);
    if (this.#estimate > MAX_FORM_CHARACTERS) {
      this.#overwhelm(value);
      return;
    }
    this.#secrets.add(value);
    this.#pending.push(value);
  }

  /** Drops every form: from now on texts are redacted whole. `value` is kept so that the set is not empty. */
  #overwhelm(value: string): void {
    this.#overwhelmed = true;
    this.#secrets.clear();
    this.#secrets.add(value);
    this.#pending = [];
    this.#anywhere = undefined;
    this.#forms = [];
    this.#matcher = undefined;
  }

  /** Whether any secret is known. */
  get isEmpty(): boolean {
    return this.#secrets.size === 0;
  }

  /**
   * Every form of every secret, within a budget: a request whose secrets have more than
   * {@link MAX_FORM_CHARACTERS} of forms (only a body built to cost CPU has) is redacted whole instead, so its
   * cost stays bounded whatever the caller sends (issue 16, finding 4). The forms of a secret added during the
   * request are made once, when a text is next redacted, and added to the others: a client that registers a
   * new credential on every call does not remake them all each time.
   */
  #allForms(): readonly string[] {
    if (this.#pending.length === 0) return this.#forms;
    const pending = this.#pending;
    this.#pending = [];
    const anywhere = (this.#anywhere ??= new Set());
    const standaloneForms = (this.#standaloneForms ??= new Set());
    let standaloneAdded = false;
    for (const value of pending) {
      const forms = formsOf(value);
      // The estimate, judged as the secrets were added, is a first cut (an over-budget request makes no form);
      // the work of making them is counted too, and past the budget the request is redacted whole all the same.
      this.#made += FORMS_PER_SECRET + forms.work;
      if (this.#made > MAX_FORM_CHARACTERS) {
        this.#overwhelm(value);
        return this.#forms;
      }
      for (const form of forms.anywhere) {
        if (anywhere.has(form)) continue;
        anywhere.add(form);
        this.#forms.push(form);
        if (form.length > this.#reach) this.#reach = form.length;
      }
      for (const form of forms.standalone) {
        if (standaloneForms.has(form)) continue;
        standaloneForms.add(form);
        standaloneAdded = true;
      }
    }
    this.#matcher = undefined;
    if (standaloneAdded) {
      this.#standalone = new StandaloneMatcher([...standaloneForms]);
      this.#reach = Math.max(this.#reach, this.#standalone.longest + 2);
      this.#shortest = Math.min(MIN_SECRET_LENGTH, this.#standalone.shortest);
    }
    return this.#forms;
  }

  /**
   * Replaces every secret form in a text. A short text is searched form by form; a long one in one pass (an
   * Aho–Corasick automaton over the forms, made once per request), so the cost is bounded by the forms'
   * budget and linear in the text. Overlapping matches merge, so two secrets that overlap are hidden whole.
   * Forms of secrets shorter than {@link MIN_SECRET_LENGTH} are replaced where they stand alone.
   *
   * @param text - any text
   * @returns the text with every secret form replaced by `[REDACTED]`; the whole text when the request's
   *   secrets are over budget
   */
  redact(text: string): string {
    if (this.#secrets.size === 0 || text === '') return text;
    const forms = this.#allForms();
    if (this.#overwhelmed) return REDACTED;
    if (text.length < this.#shortest) return text;
    let ranges =
      forms.length * text.length <= DIRECT_SEARCH_WORK
        ? searchEach(forms, text)
        : this.#search(text);
    if (!this.#standalone.isEmpty) {
      const standalone = this.#standalone.ranges(text);
      if (standalone.length > 0) ranges = merge([...ranges, ...standalone]);
    }
    if (ranges.length === 0) return text;
    let result = '';
    let end = 0;
    for (const [start, stop] of ranges) {
      result += `${text.slice(end, start)}${REDACTED}`;
      end = stop;
    }
    return `${result}${text.slice(end)}`;
  }

  /** The automaton over every form, made when a text first needs it and again after secrets were added. */
  #automaton(): FormMatcher {
    const forms = this.#allForms();
    return (this.#matcher ??= new FormMatcher(forms));
  }

  #search(text: string): [number, number][] {
    return this.#automaton().ranges(text);
  }

  /**
   * Redacts, then shortens (issue 16, finding 2: clipping first showed every character of a secret before the
   * cut). When the text is shortened, a tail that is the start of a secret form is dropped too.
   *
   * @param text - any text
   * @param max - most characters kept
   * @returns the redacted text, at most `max` characters and an ellipsis
   */
  clip(text: string, max: number): string {
    // Only what can reach the kept part is redacted: the cost follows `max`, not the text.
    this.#allForms();
    const window = text.length > max + this.#reach ? text.slice(0, max + this.#reach) : text;
    const redacted = this.redact(window);
    if (redacted.length <= max && window.length === text.length) return redacted;
    const kept = redacted.slice(0, max);
    // The cut may fall inside a secret form that the text holds whole only past the cut: drop the start of it.
    const cut =
      this.#overwhelmed || this.#secrets.size === 0
        ? 0
        : Math.max(this.#automaton().pendingStart(kept), this.#standalone.pendingStart(kept));
    return `${kept.slice(0, kept.length - cut)}…`;
  }

  /**
   * Deep-copies a value for logging, redacting every string in it, keys included. Errors become
   * `{ type, message, stack }`; binary data (`Buffer`, typed arrays, `ArrayBuffer`, `DataView`) becomes
   * `[Binary N bytes]`, since its bytes may spell a token; boxed strings, numbers and booleans are unboxed; a
   * `Map` becomes an object of its entries and a `Set` an array (issue 16, finding 6).
   *
   * @param value - anything a log call received
   * @returns a redacted copy that is safe to log
   */
  redactValue(value: unknown, depth = 0): unknown {
    if (typeof value === 'string') return this.clip(value, MAX_LOGGED_STRING);
    if (typeof value !== 'object' || value === null) return value;
    if (depth > 8) return '[Truncated]';
    if (
      ArrayBuffer.isView(value) ||
      value instanceof ArrayBuffer ||
      value instanceof SharedArrayBuffer
    )
      return `[Binary ${value.byteLength} bytes]`;
    if (value instanceof String || value instanceof Number || value instanceof Boolean)
      return this.redactValue(value.valueOf(), depth);
    if (value instanceof Error) {
      return {
        type: value.name,
        message: this.redact(value.message),
        ...(value.stack === undefined ? {} : { stack: this.redact(value.stack) }),
      };
    }
    if (value instanceof Map) {
      const copy = Object.create(null) as Record<string, unknown>;
      for (const [key, item] of value)
        copy[this.redact(typeof key === 'string' ? key : String(key))] = this.redactValue(
          item,
          depth + 1,
        );
      return copy;
    }
    if (value instanceof Set) return [...value].map((item) => this.redactValue(item, depth + 1));
    if (typeof (value as { toJSON?: unknown }).toJSON === 'function') {
      return this.redactValue((value as { toJSON(): unknown }).toJSON(), depth + 1);
    }
    if (Array.isArray(value)) return value.map((item) => this.redactValue(item, depth + 1));
    // No prototype: a `__proto__` key in logged data stays a plain key.
    const copy = Object.create(null) as Record<string, unknown>;
    for (const [key, item] of Object.entries(value))
      copy[this.redact(key)] = this.redactValue(item, depth + 1);
    return copy;
  }
}
