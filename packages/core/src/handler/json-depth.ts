/**
 * Deepest nesting of arrays and objects accepted in a request body. Deeper bodies are refused with 400 before
 * connector code sees them: at a few thousand levels `JSON.stringify` (answering, logging) overflows the
 * stack, which turned a hostile body into a 500 (issue 9). Same limit as serde_json's default.
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
 * Whether JSON text could nest deeper than `max` levels: only if it has more than `max` opening brackets.
 * Counting them is far cheaper than walking the parsed value, and settles nearly every body (issue 8).
 *
 * @param text - JSON text
 * @param max - the deepest nesting allowed
 * @internal
 */
export function mayNestDeeperThan(text: string, max: number): boolean {
  if (text.length <= max) return false;
  let count = 0;
  for (let at = text.indexOf('['); at !== -1; at = text.indexOf('[', at + 1))
    if (++count > max) return true;
  for (let at = text.indexOf('{'); at !== -1; at = text.indexOf('{', at + 1))
    if (++count > max) return true;
  return false;
}
