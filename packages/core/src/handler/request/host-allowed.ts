/**
 * Whether a `Host` header is one of `allowed` (lower-cased names, `name:port`, or `.suffix`).
 *
 * @internal
 */
export function hostAllowed(host: string | undefined, allowed: readonly string[]): boolean {
  if (host === undefined) return false;
  const value = host.trim().toLowerCase();
  // A name or an IP literal, and a port of digits: nothing else is a Host a client sends.
  if (!HOST_SYNTAX.test(value)) return false;
  // The name without its port: `[::1]:3000` → `[::1]`, `a.example:80` → `a.example`.
  const name = value.startsWith('[') ? value.slice(0, value.indexOf(']') + 1) : value.split(':')[0];
  return allowed.some((entry) =>
    entry.startsWith('.')
      ? name === entry.slice(1) || (name?.endsWith(entry) ?? false)
      : entry === value || entry === name,
  );
}

const HOST_SYNTAX = /^(?:\[[0-9a-f:.]+\]|[a-z0-9_.-]+)(?::\d{1,5})?$/;
