/**
 * A path that servers and proxies may read differently (issue 20, finding 6): a dot segment, a backslash, a
 * percent-encoded `/`, `\` or `.` anywhere, or one encoded twice (`%252e`: a parameter decoded once is `%2e`,
 * which a URL parser reads as a dot when connector code puts it into an end-system path).
 */
const UNSAFE_PATH = /(?:^|\/)\.{1,2}(?:\/|$)|\\|%(?:25)?(?:2[eEfF]|5[cC])/;

/**
 * Whether a request path breaks the SDK's one path rule; such a path never reaches a route.
 *
 * @param path - the path as sent, before any normalisation
 * @internal shared by the bindings
 */
export function isUnsafePath(path: string): boolean {
  return UNSAFE_PATH.test(path);
}
