// The views of a text the redactor searches (a `TextView` each, see view-writer.ts), one per family of
// escapes. Each decoder is the exact inverse of the encoders of its family, and leaves anything else as it is: the
// percent view undoes `%XX` in either case, up to three levels deep (`%2F`, `%252F`, `%25252F`), UTF-8
// sequences included, and reads a `+` as a space (form encoding); the JSON view undoes `\"`, `\\`, `\/`, `\b`, `\f`, `\n`,
// `\r`, `\t`, `\uXXXX` in either case and JavaScript's `\xXX` (Go's html/template writes `\x26` in a script);
// the HTML view undoes `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, the names of the characters a secret's
// escapes are made of, and numeric references of up to ten digits; the quoted-printable view (RFC 2045, a mail
// or a multipart part an end system echoes) undoes `=XX` in either case, UTF-8 sequences included, and drops
// its soft line breaks (`=` at the end of a line). A view is never longer than its text.
import { ViewWriter, hexValue, type TextView } from './view-writer.js';

// The redactor and its peers take a view's type and writer from here, with the views.
export {
  DECODED,
  LONGEST_ESCAPE,
  MOST_CHARACTERS_PER_UNIT,
  ViewWriter,
  type TextView,
} from './view-writer.js';

/** What percent-encoding and quoted-printable each write a byte as: `%XX` and `=XX`, nested as `%25XX`, `=3DXX`. */
interface ByteEscapes {
  /** The escape character. */
  readonly mark: number;
  /** The two characters that write the escape character itself (`25`, `3D`). */
  readonly self: readonly [number, number];
  /** What the original ends with when it ends inside an escape. */
  readonly partial: RegExp;
  /** Whether a `+` reads as a space (form encoding). */
  readonly plus: boolean;
  /** How many levels of nesting an escape may have: 2 (`%2525XX`), or 0 to read `%25` as a `%` and no more. */
  readonly depth: number;
  /** Whether the escape character at the end of a line is a soft line break, dropped (quoted-printable). */
  readonly softBreaks: boolean;
}

const PERCENT: ByteEscapes = {
  mark: 0x25,
  self: [0x32, 0x35],
  partial: /^%(?:25){0,2}[0-9A-Fa-f]?$/,
  plus: true,
  softBreaks: false,
  depth: 2,
};

/**
 * Percent escapes one level deep: `%2500` read as `%` and `00`, where {@link PERCENT} reads the `%00` it also is.
 * A secret that ends in `%`, written encoded before two hex digits, shows only this way.
 */
const PERCENT_FLAT: ByteEscapes = { ...PERCENT, depth: 0 };

const QUOTED_PRINTABLE: ByteEscapes = {
  mark: 0x3d,
  self: [0x33, 0x44],
  partial: /^=(?:3[Dd]){0,2}[0-9A-Fa-f\r]?$/,
  plus: false,
  softBreaks: true,
  depth: 2,
};

/** The byte of an escape at `at`, up to three levels deep (`%25XX`, `%2525XX`), and its length; none if none. */
function byteEscape(
  text: string,
  at: number,
  family: ByteEscapes,
): [byte: number, length: number] | undefined {
  for (let depth = family.depth; depth >= 0; depth--) {
    let i = at + 1;
    let nested = true;
    for (let level = 0; level < depth && nested; level++, i += 2)
      nested =
        text.charCodeAt(i) === family.self[0] && sameDigit(text.charCodeAt(i + 1), family.self[1]);
    if (!nested) continue;
    const high = hexValue(text.charCodeAt(i));
    const low = hexValue(text.charCodeAt(i + 1));
    if (high !== -1 && low !== -1) return [high * 16 + low, i + 2 - at];
  }
  return undefined;
}

/** The length of a soft line break at `at` (`=` and CRLF or LF), 0 when there is none. */
function softBreak(text: string, at: number): number {
  if (text.charCodeAt(at) !== 0x3d) return 0;
  const next = text.charCodeAt(at + 1);
  return next === 0x0a ? 2 : next === 0x0d && text.charCodeAt(at + 2) === 0x0a ? 3 : 0;
}

/** Whether a code unit is the hex digit `digit`, a letter in either case. */
const sameDigit = (unit: number, digit: number) =>
  unit === digit || (digit >= 0x41 && (unit | 0x20) === (digit | 0x20));

/** Whether `text` from `at` (an escape character) to its end is the start of an escape: `%`, `%2`, `%25`… */
const endsInEscape = (text: string, at: number, family: ByteEscapes) =>
  family.partial.test(text.slice(at));

/** The least code point a UTF-8 sequence of 1 + n bytes may write: anything less is an overlong form. */
const SHORTEST_POINT = [0, 0x80, 0x800, 0x10000];

/**
 * The text with its percent escapes decoded, and every `+`, written or decoded, read as a space: form
 * encoding writes a space as `+`, and encoding that twice writes `%2B`, where other encoders mean a `+`; the
 * view cannot tell them apart, so it reads both alike (and the redactor reads a secret the same way). A run of
 * escapes that is a UTF-8 sequence becomes its character; a byte that starts none becomes U+FFFD, as a
 * decoder writes it.
 */
export const percentView = (text: string): TextView => bytesView(text, PERCENT);

/** The text with its percent escapes decoded one level only (see {@link PERCENT_FLAT}). */
export const flatPercentView = (text: string): TextView => bytesView(text, PERCENT_FLAT);

/**
 * The text with its quoted-printable escapes (`=XX`, in either case) decoded as UTF-8, as {@link percentView}
 * decodes percent escapes, and its soft line breaks (`=` at the end of a line) dropped.
 */
export const quotedPrintableView = (text: string): TextView => bytesView(text, QUOTED_PRINTABLE);

/** The text with one family's byte escapes decoded (see {@link percentView}). */
function bytesView(text: string, family: ByteEscapes): TextView {
  const out = new ViewWriter(text.length);
  const { mark } = family;
  let cut = text.length;
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code === 0x2b && family.plus) {
      out.put(0x20, i, ++i);
      continue;
    }
    if (code !== mark) {
      out.put(code, i, ++i);
      continue;
    }
    const soft = family.softBreaks ? softBreak(text, i) : 0;
    if (soft > 0) {
      i += soft;
      continue;
    }
    const escape = byteEscape(text, i, family);
    if (escape === undefined) {
      if (cut === text.length && endsInEscape(text, i, family)) cut = i;
      out.put(code, i, ++i);
      continue;
    }
    const [lead, length] = escape;
    const more =
      lead < 0x80 ? 0 : lead < 0xc2 ? -1 : lead < 0xe0 ? 1 : lead < 0xf0 ? 2 : lead < 0xf5 ? 3 : -1;
    let point = more <= 0 ? lead : lead & (0x3f >> more);
    let end = i + length;
    for (let k = 0; k < more; k++) {
      // Quoted-printable may break a line inside a character's escapes.
      if (family.softBreaks) end += softBreak(text, end);
      const next = text.charCodeAt(end) === mark ? byteEscape(text, end, family) : undefined;
      if (next === undefined || (next[0] & 0xc0) !== 0x80) {
        // A text cut inside this character's escapes (`%25F0%25`): a clip drops what it kept of them.
        if (
          end === text.length ||
          (text.charCodeAt(end) === mark && endsInEscape(text, end, family))
        )
          cut = Math.min(cut, i);
        point = -1;
        break;
      }
      point = (point << 6) | (next[0] & 0x3f);
      end += next[1];
    }
    if (more === 0) out.put(lead === 0x2b && family.plus ? 0x20 : lead, i, end);
    else if (
      more > 0 &&
      point >= (SHORTEST_POINT[more] as number) &&
      point <= 0x10ffff &&
      (point < 0xd800 || point > 0xdfff)
    )
      out.putCodePoint(point, i, end);
    else {
      out.put(0xfffd, i, i + length);
      end = i + length;
    }
    i = end;
  }
  // `%25` at the end is a whole escape, and also the start of `%252F`.
  const last = text.lastIndexOf(String.fromCharCode(mark), text.length - 1);
  if (last !== -1 && last >= text.length - 6 && endsInEscape(text, last, family))
    cut = Math.min(cut, last);
  return out.view(cut);
}

const JSON_ESCAPES: Readonly<Record<string, number>> = {
  '"': 0x22,
  '\\': 0x5c,
  '/': 0x2f,
  b: 0x08,
  f: 0x0c,
  n: 0x0a,
  r: 0x0d,
  t: 0x09,
};

/** The text with its JSON string escapes decoded; anything that is not one stays as it is. */
export function jsonView(text: string): TextView {
  const out = new ViewWriter(text.length);
  let cut = text.length;
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code !== 0x5c) {
      out.put(code, i, ++i);
      continue;
    }
    const next = text.charAt(i + 1);
    const simple = JSON_ESCAPES[next];
    if (simple !== undefined) {
      out.put(simple, i, i + 2);
      i += 2;
      continue;
    }
    if (next === 'u' || next === 'x') {
      const want = next === 'u' ? 4 : 2;
      let unit = 0;
      let digits = 0;
      while (digits < want && hexValue(text.charCodeAt(i + 2 + digits)) !== -1)
        unit = unit * 16 + hexValue(text.charCodeAt(i + 2 + digits++));
      if (digits === want) {
        out.put(unit, i, i + 2 + want);
        i += 2 + want;
        continue;
      }
      if (i + 2 + digits === text.length && cut === text.length) cut = i;
    } else if (i + 1 === text.length && cut === text.length) cut = i;
    out.put(code, i, ++i);
  }
  return out.view(cut);
}

const NAMED_REFERENCES: Readonly<Record<string, number>> = {
  amp: 0x26,
  AMP: 0x26,
  lt: 0x3c,
  LT: 0x3c,
  gt: 0x3e,
  GT: 0x3e,
  quot: 0x22,
  QUOT: 0x22,
  apos: 0x27,
  // HTML5's names for what percent and JSON escapes are made of, and for a secret's usual punctuation.
  percnt: 0x25,
  bsol: 0x5c,
  sol: 0x2f,
  plus: 0x2b,
  equals: 0x3d,
  num: 0x23,
  quest: 0x3f,
  colon: 0x3a,
  semi: 0x3b,
  commat: 0x40,
};

/** A character reference at `at` (an `&`): `&amp;`, `&#39;`, `&#x27;`, `&#00000038;` (zeros are allowed). */
const REFERENCE = /&(?:([a-zA-Z]{2,6});|#(?:([0-9]{1,10})|[xX]([0-9a-fA-F]{1,9}));)/y;
/** What a text that ends inside a character reference ends with. */
const PARTIAL_REFERENCE = /&(?:[a-zA-Z]{0,6}|#(?:[0-9]{0,10}|[xX][0-9a-fA-F]{0,9}))$/y;

/** The text with its HTML character references decoded, as templates write them into an error page. */
export function htmlView(text: string): TextView {
  const out = new ViewWriter(text.length);
  let cut = text.length;
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code !== 0x26) {
      out.put(code, i, ++i);
      continue;
    }
    REFERENCE.lastIndex = i;
    const reference = REFERENCE.exec(text);
    const [whole, name, decimal, hex] = reference ?? [];
    const point =
      name !== undefined
        ? NAMED_REFERENCES[name]
        : decimal !== undefined
          ? Number(decimal)
          : hex !== undefined
            ? parseInt(hex, 16)
            : undefined;
    if (whole !== undefined && point !== undefined) {
      const valid = point > 0 && point <= 0x10ffff && (point < 0xd800 || point > 0xdfff);
      out.putCodePoint(valid ? point : 0xfffd, i, i + whole.length);
      i += whole.length;
      continue;
    }
    PARTIAL_REFERENCE.lastIndex = i;
    if (cut === text.length && PARTIAL_REFERENCE.test(text)) cut = i;
    out.put(code, i, ++i);
  }
  return out.view(cut);
}
