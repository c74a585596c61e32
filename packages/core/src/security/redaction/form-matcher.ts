/**
 * Finds where any of many strings occurs in a text, in one pass (Aho–Corasick): the redactor's search. Its
 * cost is linear in the text whatever the forms are, where one `indexOf` per form cost the number of forms
 * times the text, and a text that matched every form everywhere (`aaaa…` against forms made of `a`s) made a
 * range per form per position (ARCHITECTURE.md, D6). Built once per request in time linear in the total
 * length of the forms, in typed arrays: objects or a `Map` per node cost a hundred times more to build.
 *
 * @internal
 */
export class FormMatcher {
  // Edges in an open-addressing hash table: (node, code unit) → child.
  readonly #mask: number;
  readonly #edgeNode: Int32Array;
  readonly #edgeCode: Uint16Array;
  readonly #edgeChild: Int32Array;
  /** Per node: where to continue when the next code unit has no edge. */
  readonly #fail: Int32Array;
  /** Per node: the length of the longest form that ends there (0 when none). */
  readonly #longest: Int32Array;
  /** Per node: how many characters of a form it stands for. */
  readonly #depth: Int32Array;
  /** Per node: whether a form ends there. */
  readonly #terminal: Uint8Array;
  /** Per node: the deepest node on its fallback chain where a form ends (0 when none): every shorter match. */
  readonly #dictionary: Int32Array;

  /** @param forms - the strings to find; empty ones are ignored */
  constructor(forms: readonly string[]) {
    let total = 1;
    for (const form of forms) total += form.length;
    let size = 2;
    while (size < total * 2) size *= 2;
    this.#mask = size - 1;
    this.#edgeNode = new Int32Array(size).fill(-1);
    this.#edgeCode = new Uint16Array(size);
    this.#edgeChild = new Int32Array(size);
    this.#fail = new Int32Array(total);
    this.#longest = new Int32Array(total);
    this.#depth = new Int32Array(total);
    this.#terminal = new Uint8Array(total);
    this.#dictionary = new Int32Array(total);
    const parent = new Int32Array(total);
    const code = new Uint16Array(total);

    let nodes = 1;
    for (const form of forms) {
      let node = 0;
      for (let i = 0; i < form.length; i++) {
        const unit = form.charCodeAt(i);
        let child = this.#edge(node, unit);
        if (child === 0) {
          child = nodes++;
          this.#link(node, unit, child);
          parent[child] = node;
          code[child] = unit;
          this.#depth[child] = i + 1;
        }
        node = child;
      }
      if (form.length > (this.#longest[node] as number)) this.#longest[node] = form.length;
      if (form.length > 0) this.#terminal[node] = 1;
    }

    // Fallbacks in order of depth, so that a parent's is settled before its children's (a counting sort).
    let deepest = 0;
    for (let node = 1; node < nodes; node++)
      deepest = Math.max(deepest, this.#depth[node] as number);
    const starts = new Int32Array(deepest + 2);
    for (let node = 1; node < nodes; node++) {
      const next = (this.#depth[node] as number) + 1;
      starts[next] = (starts[next] as number) + 1;
    }
    for (let d = 1; d < starts.length; d++)
      starts[d] = (starts[d] as number) + (starts[d - 1] as number);
    const order = new Int32Array(nodes);
    for (let node = 1; node < nodes; node++) {
      const d = this.#depth[node] as number;
      order[starts[d] as number] = node;
      starts[d] = (starts[d] as number) + 1;
    }
    for (let at = 0; at < nodes - 1; at++) {
      const node = order[at] as number;
      const from = parent[node] as number;
      if (from === 0) continue; // depth 1: falls back to the root
      const unit = code[node] as number;
      let fallback = this.#fail[from] as number;
      let target = this.#edge(fallback, unit);
      while (target === 0 && fallback !== 0) {
        fallback = this.#fail[fallback] as number;
        target = this.#edge(fallback, unit);
      }
      this.#fail[node] = target;
      const inherited = this.#longest[target] as number;
      if (inherited > (this.#longest[node] as number)) this.#longest[node] = inherited;
      this.#dictionary[node] =
        this.#terminal[target] === 1 ? target : (this.#dictionary[target] as number);
    }
  }

  /** The child of `node` by `unit`, or 0 (the root is nobody's child). */
  #edge(node: number, unit: number): number {
    let slot = (Math.imul(node, 0x9e3779b1) ^ Math.imul(unit, 0x85ebca6b)) & this.#mask;
    for (;;) {
      const owner = this.#edgeNode[slot] as number;
      if (owner === -1) return 0;
      if (owner === node && this.#edgeCode[slot] === unit) return this.#edgeChild[slot] as number;
      slot = (slot + 1) & this.#mask;
    }
  }

  #link(node: number, unit: number, child: number): void {
    let slot = (Math.imul(node, 0x9e3779b1) ^ Math.imul(unit, 0x85ebca6b)) & this.#mask;
    while ((this.#edgeNode[slot] as number) !== -1) slot = (slot + 1) & this.#mask;
    this.#edgeNode[slot] = node;
    this.#edgeCode[slot] = unit;
    this.#edgeChild[slot] = child;
  }

  #step(from: number, unit: number): number {
    let node = from;
    let child = this.#edge(node, unit);
    while (child === 0 && node !== 0) {
      node = this.#fail[node] as number;
      child = this.#edge(node, unit);
    }
    return child;
  }

  /**
   * How many characters at the end of `text` are the start of a form (0 when none): what a cut through a
   * secret leaves behind.
   */
  pendingStart(text: string): number {
    let node = 0;
    for (let i = 0; i < text.length; i++) node = this.#step(node, text.charCodeAt(i));
    return this.#depth[node] as number;
  }

  /**
   * Calls `visit` for every occurrence of every form in `text`, in order of where they end: one pass, and for
   * each position only the forms that really end there.
   */
  eachMatch(text: string, visit: (start: number, end: number) => void): void {
    let node = 0;
    for (let i = 0; i < text.length; i++) {
      node = this.#step(node, text.charCodeAt(i));
      let found = this.#terminal[node] === 1 ? node : (this.#dictionary[node] as number);
      while (found !== 0) {
        visit(i + 1 - (this.#depth[found] as number), i + 1);
        found = this.#dictionary[found] as number;
      }
    }
  }

  /**
   * The stretches of `text` that forms cover, merged where they overlap, in order.
   *
   * @returns `[start, end)` pairs
   */
  ranges(text: string): [number, number][] {
    const ranges: [number, number][] = [];
    let node = 0;
    for (let i = 0; i < text.length; i++) {
      node = this.#step(node, text.charCodeAt(i));
      const length = this.#longest[node] as number;
      if (length === 0) continue;
      let start = i + 1 - length;
      // Ends only grow; a longer match may reach back over earlier stretches, which it then absorbs.
      while (ranges.length > 0 && (ranges[ranges.length - 1] as [number, number])[1] > start) {
        start = Math.min(start, (ranges.pop() as [number, number])[0]);
      }
      ranges.push([start, i + 1]);
    }
    return ranges;
  }
}

/** Whether the code point at `at` is a letter or a digit (ASCII without a regular expression). */
function isWordAt(text: string, at: number): boolean {
  const code = text.codePointAt(at);
  if (code === undefined) return false;
  if (code < 0x80) return (code >= 48 && code <= 57) || ((code | 32) >= 97 && (code | 32) <= 122);
  return WORD.test(String.fromCodePoint(code));
}
const WORD = /[\p{L}\p{N}]/u;
const HEX_PAIR = /^[0-9A-Fa-f]{2}$/;
const HEX_QUAD = /^[0-9A-Fa-f]{4}$/;

/**
 * Whether the code point that ends just before `at` is a letter or a digit that belongs to a word: the end of
 * an escape (`\n`, `\t`, `\u000a`, `%2F`) is a boundary, since the escape stands for a separator (a
 * JSON excerpt of `Wrong PIN:\n42` kept the PIN).
 */
function isWordBefore(text: string, at: number): boolean {
  if (at === 0) return false;
  if (at >= 2 && text.charCodeAt(at - 2) === 92 /* \ */ && 'nrtbf'.includes(text.charAt(at - 1)))
    return false;
  if (at >= 3 && text.charCodeAt(at - 3) === 37 /* % */ && HEX_PAIR.test(text.slice(at - 2, at)))
    return false;
  if (at >= 6 && text.slice(at - 6, at - 4) === '\\u' && HEX_QUAD.test(text.slice(at - 4, at)))
    return false;
  const unit = text.charCodeAt(at - 1);
  const high = at >= 2 ? text.charCodeAt(at - 2) : 0;
  // The second half of a surrogate pair: the code point starts one unit earlier. A lone one is its own.
  const pair = unit >= 0xdc00 && unit <= 0xdfff && high >= 0xd800 && high <= 0xdbff;
  return isWordAt(text, pair ? at - 2 : at - 1);
}

/**
 * Finds short forms (a PIN, a CVV) where they stand alone: where neither the character before nor the one after
 * is a letter or a digit. An automaton finds every occurrence in one pass, and only those are judged, so its
 * cost is linear in the text whatever the number of forms.
 *
 * @internal
 */
export class StandaloneMatcher {
  readonly #forms: Set<string>;
  /** Finds every occurrence; the matcher then keeps those that stand alone. */
  readonly #matcher: FormMatcher;
  /**
   * Every prefix of a form, the whole form included: what a cut through or just after a form leaves. Made on
   * the first cut: most requests never clip a text.
   */
  #prefixes: Set<string> | undefined;
  /** The shortest form's length. */
  readonly shortest: number;
  /** The longest form's length. */
  readonly longest: number;

  /** @param forms - the strings to find; empty ones are ignored */
  constructor(forms: readonly string[]) {
    this.#forms = new Set(forms.filter((form) => form !== ''));
    this.#matcher = new FormMatcher([...this.#forms]);
    let shortest = Infinity;
    let longest = 0;
    for (const form of this.#forms) {
      shortest = Math.min(shortest, form.length);
      longest = Math.max(longest, form.length);
    }
    this.shortest = shortest;
    this.longest = longest;
  }

  /** Whether there is nothing to find. */
  get isEmpty(): boolean {
    return this.#forms.size === 0;
  }

  /**
   * The stretches of `text` where a form stands alone. They may overlap (`1-2` and `2-3` in `1-2-3`) and come
   * in order of their ends; the caller sorts and merges them. One pass of an automaton: a text made of the
   * forms' first characters costs no more than any other (it took 18 ms for 64 KiB of `%` when each position
   * was tried at every length).
   *
   * @returns `[start, end)` pairs
   */
  ranges(text: string): [number, number][] {
    const ranges: [number, number][] = [];
    this.#matcher.eachMatch(text, (start, end) => {
      if (!isWordBefore(text, start) && !isWordAt(text, end)) ranges.push([start, end]);
    });
    return ranges;
  }

  /**
   * How many characters at the end of `text` are the start of a form, or a whole one, standing alone after a
   * boundary (0 when none): what a cut through or just after a short secret leaves behind, where the text went
   * on with a letter that kept it from standing alone.
   */
  pendingStart(text: string): number {
    if (this.#prefixes === undefined) {
      this.#prefixes = new Set();
      for (const form of this.#forms)
        for (let end = 1; end <= form.length; end++) this.#prefixes.add(form.slice(0, end));
    }
    for (let length = Math.min(this.longest, text.length); length > 0; length--) {
      const start = text.length - length;
      if (!isWordBefore(text, start) && this.#prefixes.has(text.slice(start))) return length;
    }
    return 0;
  }
}
