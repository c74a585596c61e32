/**
 * Deepest nesting of arrays and objects accepted in a request body. Deeper bodies are refused with 400 before
 * connector code sees them: at a few thousand levels `JSON.stringify` (answering, logging) overflows the
 * stack, which turned a hostile body into a 500 (ARCHITECTURE.md, D3). Same limit as serde_json's default.
 */
export const MAX_JSON_DEPTH = 128;

/**
 * Whether a parsed JSON value nests arrays and objects deeper than `max` levels. Walks without recursion, so
 * the check itself cannot overflow the stack.
 *
 * @param value - a parsed request body
 * @param max - the deepest nesting allowed
 * @internal
 */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const values: unknown[] = [value];
  const depths: number[] = [0];
  while (values.length > 0) {
    const current = values.pop();
    const depth = depths.pop() as number;
    if (typeof current !== 'object' || current === null) continue;
    if (depth >= max) return true;
    if (Array.isArray(current)) {
      for (const item of current as unknown[]) {
        if (typeof item === 'object' && item !== null) {
          values.push(item);
          depths.push(depth + 1);
        }
      }
    } else {
      for (const key in current) {
        const item = (current as Record<string, unknown>)[key];
        if (typeof item === 'object' && item !== null) {
          values.push(item);
          depths.push(depth + 1);
        }
      }
    }
  }
  return false;
}

/**
 * Whether JSON text nests arrays and objects deeper than `max` levels, read from the text itself, before it is
 * parsed: strings are skipped whole (`indexOf`), and only brackets outside them count. For valid JSON the answer
 * is exact, so a deep body is refused without parsing it (parsing 500,000 levels cost more than 100 ms), and a
 * wide one (80,000 objects) is cleared without walking what it parses to. Text that is not JSON may get
 * either answer; `JSON.parse` refuses it anyway.
 *
 * @param text - JSON text
 * @param max - the deepest nesting allowed
 * @internal
 */
export function textNestsDeeperThan(text: string, max: number): boolean {
  // Deeper than `max` takes more than `max` opening brackets.
  if (text.length <= max) return false;
  let depth = 0;
  const length = text.length;
  for (let at = 0; at < length; at++) {
    const code = text.charCodeAt(at);
    if (code === 0x22) {
      // To the closing quote: one not escaped, that is, after an even run of backslashes.
      let end = text.indexOf('"', at + 1);
      while (end !== -1 && escaped(text, end)) end = text.indexOf('"', end + 1);
      if (end === -1) return false;
      at = end;
    } else if (code === 0x5b || code === 0x7b) {
      if (++depth > max) return true;
    } else if (code === 0x5d || code === 0x7d) depth--;
  }
  return false;
}

/** Whether the character at `at` follows an odd run of backslashes. */
function escaped(text: string, at: number): boolean {
  let slashes = 0;
  while (text.charCodeAt(at - 1 - slashes) === 0x5c) slashes++;
  return slashes % 2 === 1;
}
