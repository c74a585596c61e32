import { nullRecord } from './null-record.js';

/**
 * One segment of a route pattern: a literal, or a named parameter (`:name`). One shape for both, so that
 * matching reads the same hidden class every time (ARCHITECTURE.md, D21).
 */
interface Segment {
  readonly literal: string | undefined;
  readonly param: string | undefined;
}

/** A compiled route. */
export interface Route<T> {
  readonly method: string;
  readonly pattern: string;
  readonly segments: readonly Segment[];
  readonly target: T;
}

/** The outcome of matching a path. */
export type RouteMatch<T> =
  | { readonly kind: 'found'; readonly route: Route<T>; readonly params: Record<string, string> }
  | { readonly kind: 'method-not-allowed'; readonly allow: readonly string[] }
  | { readonly kind: 'not-found' };

const PARAM = /^:([A-Za-z_$][\w$]*)$/;
// RFC 3986 pchar, minus ':' at the start (that marks a parameter).
const LITERAL = /^[A-Za-z0-9\-._~!$&'()*+,;=@%][A-Za-z0-9\-._~!$&'()*+,;=:@%]*$/;

/**
 * Compiles a route pattern such as `/issues/:id/comments`.
 *
 * @throws TypeError naming the pattern when it is malformed
 */
export function compileRoute<T>(method: string, pattern: string, target: T): Route<T> {
  if (!pattern.startsWith('/')) throw new TypeError(`Route "${pattern}" must start with "/"`);
  const parts = pattern === '/' ? [] : pattern.slice(1).split('/');
  const names = new Set<string>();
  const segments = parts.map((part): Segment => {
    const param = PARAM.exec(part)?.[1];
    if (param !== undefined) {
      if (names.has(param))
        throw new TypeError(`Route "${pattern}" repeats the parameter ":${param}"`);
      names.add(param);
      return { literal: undefined, param };
    }
    if (!LITERAL.test(part))
      throw new TypeError(`Route "${pattern}" has an invalid segment "${part}"`);
    return { literal: part, param: undefined };
  });
  return { method, pattern, segments, target };
}

/** The same pattern with parameter names erased, to find routes that would shadow each other. */
export function routeShape(route: Route<unknown>): string {
  return route.segments.map((s) => s.literal ?? ':').join('/');
}

/** Routes with more literal segments first, so `/issues/search` wins over `/issues/:id`. */
export function sortRoutes<T>(routes: readonly Route<T>[]): Route<T>[] {
  const literals = (route: Route<T>) =>
    route.segments.filter((s) => s.literal !== undefined).length;
  return [...routes].sort((a, b) => literals(b) - literals(a));
}

/**
 * Matches path segments (still percent-encoded) against sorted routes. Parameters are decoded; a malformed
 * percent-encoding in a parameter throws URIError.
 *
 * @param parts - the segments of the path after the base path and version
 */
export function matchRoute<T>(
  routes: readonly Route<T>[],
  method: string,
  parts: readonly string[],
): RouteMatch<T> {
  let allow: string[] | undefined;
  const count = parts.length;
  for (const route of routes) {
    const { segments } = route;
    if (segments.length !== count) continue;
    let matches = true;
    for (let i = 0; i < count; i++) {
      const { literal } = segments[i] as Segment;
      const part = parts[i] as string;
      if (literal === undefined ? part === '' : literal !== part) {
        matches = false;
        break;
      }
    }
    if (!matches) continue;
    if (route.method !== method) {
      allow ??= [];
      if (!allow.includes(route.method)) allow.push(route.method);
      continue;
    }
    const params = nullRecord<string>();
    for (let i = 0; i < count; i++) {
      const { param } = segments[i] as Segment;
      if (param === undefined) continue;
      const part = parts[i] as string;
      params[param] = part.includes('%') ? decodeURIComponent(part) : part;
    }
    return { kind: 'found', route, params };
  }
  return allow ? { kind: 'method-not-allowed', allow } : { kind: 'not-found' };
}
