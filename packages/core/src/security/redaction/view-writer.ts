// What a view of a text is (`TextView`: the decoded text and, per code unit, where it came from in the
// original) and how a decoder writes one (`ViewWriter`), with the limits a clip reads them by. The decoders
// themselves are in text-views.ts and folded-view.ts.

/**
 * A text as one family of escapes decodes it: what the redactor searches besides the text itself, so that a
 * secret is found however an encoder chose to write it (ARCHITECTURE.md, D5). Making one spelling of every
 * secret per encoding cost up to 128 characters of forms per character of secret, and still missed spellings no
 * list held (lower-case escapes, escapes of escapes, Go's `\u0026`); decoding the text costs one pass over it,
 * and finds every mix of escaped and plain characters at once. The decoders are described in text-views.ts.
 *
 * @internal
 */
export interface TextView {
  /** The decoded text. */
  readonly text: string;
  /** Per code unit of {@link text}: where the escape (or character) it comes from starts in the original. */
  readonly from: Int32Array;
  /** Per code unit: where that escape ends in the original (exclusive). */
  readonly to: Int32Array;
  /**
   * Where an escape starts that the original ends in the middle of (`%2`, `%25`, `\u00`, `&am`), which a clip
   * must not show, since it may be the first character of a secret; the original's length when there is none.
   */
  readonly cut: number;
  /** Which of {@link DECODED} decoding wrote: the families of escapes only the view shows as such. */
  readonly decoded: number;
}

/** The escape characters a view may have decoded: its view of that family may then differ from it. */
export const DECODED = { percent: 1, backslash: 2, ampersand: 4, equals: 8 } as const;

/** The flag of {@link DECODED} for an escape character decoded from a longer escape; 0 for any other. */
const decodedFlag = (unit: number): number =>
  unit === 0x25 ? 1 : unit === 0x5c ? 2 : unit === 0x26 ? 4 : unit === 0x3d ? 8 : 0;

/** Most characters one escape of each family takes: `%25252F`, `\uD83D`, `&#0001114111;`. */
export const LONGEST_ESCAPE = 13;

/**
 * How many characters of the original one code unit of a view may stand for, at most: a three-byte UTF-8
 * character percent-encoded three levels deep (`%2525E2%252582%2525AC`). What a clip reads past its cut. A view
 * of a view may stand for more (each of those characters an HTML reference): a form it cuts in two there is
 * dropped with the clip's tail instead of shown as `[REDACTED]`, which keeps a clip's work at a quarter.
 */
export const MOST_CHARACTERS_PER_UNIT = 21;

/**
 * Collects a view's code units and their origins.
 *
 * @internal
 */
export class ViewWriter {
  units: Uint16Array;
  from: Int32Array;
  to: Int32Array;
  length = 0;
  decoded = 0;

  constructor(size: number) {
    this.units = new Uint16Array(size);
    this.from = new Int32Array(size);
    this.to = new Int32Array(size);
  }

  put(unit: number, from: number, to: number): void {
    if (to - from > 1) this.decoded |= decodedFlag(unit);
    this.units[this.length] = unit;
    this.from[this.length] = from;
    this.to[this.length++] = to;
  }

  /** Makes room for `more` code units: only a view that may be longer than its text needs it. */
  reserve(more: number): void {
    if (this.length + more <= this.units.length) return;
    const size = Math.max(this.length + more, this.units.length * 2);
    const units = new Uint16Array(size);
    const from = new Int32Array(size);
    const to = new Int32Array(size);
    units.set(this.units.subarray(0, this.length));
    from.set(this.from.subarray(0, this.length));
    to.set(this.to.subarray(0, this.length));
    this.units = units;
    this.from = from;
    this.to = to;
  }

  /** A code point as one or two code units, both standing for the whole escape. */
  putCodePoint(point: number, from: number, to: number): void {
    if (point < 0x10000) this.put(point, from, to);
    else {
      this.put(0xd800 + ((point - 0x10000) >> 10), from, to);
      this.put(0xdc00 + ((point - 0x10000) & 0x3ff), from, to);
    }
  }

  view(cut: number): TextView {
    const units = this.units.subarray(0, this.length);
    const text = Buffer.from(units.buffer, units.byteOffset, units.byteLength).toString('utf16le');
    return { text, from: this.from, to: this.to, cut, decoded: this.decoded };
  }
}

/**
 * The value of a hex digit in either case, -1 for any other code unit.
 *
 * @internal
 */
export const hexValue = (code: number): number =>
  code >= 0x30 && code <= 0x39
    ? code - 0x30
    : (code | 0x20) >= 0x61 && (code | 0x20) <= 0x66
      ? (code | 0x20) - 0x57
      : -1;
