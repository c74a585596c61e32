// Values written as TypeScript the way the project's own code reads (single quotes, bare keys, short values on
// one line), for the tests the console saves: a user reads and keeps them.

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const WIDTH = 100;

function quote(text: string): string {
  return `'${JSON.stringify(text).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
}

/**
 * A JSON value as a TypeScript expression, indented for its place.
 *
 * @param value - the value
 * @param indent - the indentation of the line it starts on
 * @internal
 */
export function tsLiteral(value: unknown, indent = ''): string {
  if (value === null || typeof value !== 'object')
    return typeof value === 'string' ? quote(value) : (JSON.stringify(value) ?? 'undefined');
  const inner = `${indent}  `;
  const parts = Array.isArray(value)
    ? value.map((item) => tsLiteral(item, inner))
    : Object.entries(value as Record<string, unknown>)
        .filter(([, item]) => item !== undefined)
        .map(
          ([key, item]) => `${IDENTIFIER.test(key) ? key : quote(key)}: ${tsLiteral(item, inner)}`,
        );
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{ ', ' }'];
  if (parts.length === 0) return Array.isArray(value) ? '[]' : '{}';
  const oneLine = `${open}${parts.join(', ')}${close}`;
  if (!oneLine.includes('\n') && indent.length + oneLine.length <= WIDTH) return oneLine;
  return `${open.trim()}\n${parts.map((part) => `${inner}${part},`).join('\n')}\n${indent}${close.trim()}`;
}
