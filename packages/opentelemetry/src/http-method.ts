const KNOWN = new Set([
  'CONNECT',
  'DELETE',
  'GET',
  'HEAD',
  'OPTIONS',
  'PATCH',
  'POST',
  'PUT',
  'TRACE',
]);

/**
 * The method as the conventions record it: one of the known methods, or `_OTHER` (an unknown method is
 * whatever the caller chose to send, so it is not recorded).
 *
 * @internal
 */
export function httpMethod(method: string): string {
  if (KNOWN.has(method)) return method;
  const upper = method.toUpperCase();
  return KNOWN.has(upper) ? upper : '_OTHER';
}
