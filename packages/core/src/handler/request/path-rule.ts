/**
 * A path that servers and proxies may read differently (ARCHITECTURE.md, D3): a dot segment, a backslash, a
 * percent-encoded `/`, `\` or `.` anywhere, or one encoded twice (`%252e`: a parameter decoded once is `%2e`,
 * which a URL parser reads as a dot when connector code puts it into an end-system path).
 */
const UNSAFE_PATH = /(?:^|\/)\.{1,2}(?:\/|$)|\\|%(?:25)?(?:2[eEfF]|5[cC])/;

/** An absolute-form target's scheme and authority (RFC 9112 §3.2.2): `http://host:port` of `http://host:port/path`. */
const ABSOLUTE_FORM = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)/i;

const UNSAFE_PATH_MESSAGE =
  'The request path has a dot segment, a backslash, or an encoded "/", "\\" or "."; it is not served';

/**
 * Whether a request path breaks the SDK's one path rule; such a path never reaches a route.
 *
 * @param path - the path as sent, before any normalisation
 * @internal shared by the bindings
 */
export function isUnsafePath(path: string): boolean {
  return UNSAFE_PATH.test(path);
}

/**
 * A request target in origin form (`/path?query`): an absolute-form target (`http://host/path?query`, RFC 9112
 * §3.2.2) without its scheme and authority. Whether the authority may be dropped is {@link requestPathProblem}'s
 * to judge, with the whole target.
 *
 * @param target - the request target as sent
 * @returns the target from its path on
 * @internal shared by the bindings
 */
export function originForm(target: string): string {
  if (target.charCodeAt(0) === 47 /* / */) return target;
  const origin = target.replace(ABSOLUTE_FORM, '');
  return origin.charCodeAt(0) === 47 ? origin : `/${origin}`;
}

/**
 * Why a request target breaks the rule (ARCHITECTURE.md, D3), or `undefined`: it must be a path (origin form) or
 * an absolute http(s) URL whose authority is the `Host` header's (RFC 9110 §7.2 makes a client send them
 * identical; a server that read one and a proxy that read the other would judge different hosts, and
 * `allowedHosts` judges the header), without a fragment (not part of any request target, RFC 9112 §3.2), and its
 * path must keep the path rule.
 */
function targetProblem(target: string, host: string | undefined): string | undefined {
  let origin = target;
  if (target.charCodeAt(0) !== 47 /* / */) {
    const match = ABSOLUTE_FORM.exec(target);
    if (match === null) return 'The request target must be a path or an absolute http(s) URL';
    const scheme = (match[1] as string).toLowerCase();
    if (scheme !== 'http' && scheme !== 'https')
      return 'An absolute-form request target must be an http or https URL';
    if (host === undefined || (match[2] as string).toLowerCase() !== host.trim().toLowerCase())
      return 'An absolute-form request target must name the host its Host header names';
    origin = target.slice(match[0].length);
  }
  if (origin.includes('#')) return 'The request target has a fragment ("#"); it is not served';
  const mark = origin.indexOf('?');
  return isUnsafePath(mark === -1 ? origin : origin.slice(0, mark))
    ? UNSAFE_PATH_MESSAGE
    : undefined;
}

/**
 * Why a request breaks the SDK's one rule for request targets and paths, or `undefined` when it keeps it. The
 * raw target, when the binding hands it over, is judged whole; the path the binding routes by is judged too
 * when it is not the target's own (a framework may have rewritten it).
 *
 * @param request - the path routed by, the target as sent (if known) and the `Host` header
 * @returns the message of a `400 INVALID_PATH`, or `undefined`
 * @internal
 */
export function requestPathProblem(request: {
  readonly path: string;
  readonly target?: string | undefined;
  readonly headers: Readonly<Record<string, string | undefined>>;
}): string | undefined {
  const { path, target } = request;
  if (target !== undefined) {
    const problem = targetProblem(target, request.headers.host);
    // The usual case, a node target: the path is the target's own, just judged.
    if (
      problem !== undefined ||
      (target.startsWith(path) &&
        (target.length === path.length || target.charCodeAt(path.length) === 63)) /* ? */
    )
      return problem;
  }
  if (path.includes('#')) return 'The request target has a fragment ("#"); it is not served';
  return isUnsafePath(path) ? UNSAFE_PATH_MESSAGE : undefined;
}
