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
  const pending: [unknown, number][] = [[value, 0]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [current, depth] = next;
    if (typeof current !== 'object' || current === null) continue;
    if (depth >= max) return true;
    for (const item of Object.values(current)) pending.push([item, depth + 1]);
  }
  return false;
}
