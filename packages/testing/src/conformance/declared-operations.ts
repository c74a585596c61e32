import {
  PLATFORM_OPERATIONS,
  type Connector,
  type PlatformOperationName,
} from '@connector-sdk/core';

/** Where a connector serves one platform operation: its method and its path after the versioned base. */
export interface DeclaredOperation {
  readonly method: string;
  readonly pattern: string;
}

/** The platform operations a target serves, by name, and who said so (for the skip reasons). */
export interface DeclaredOperations {
  readonly routes: ReadonlyMap<PlatformOperationName, DeclaredOperation>;
  /** `connector`: read from the connector the kit serves; `list`: from `platform.operations`. */
  readonly source: 'connector' | 'list';
}

/** The part of the conformance options that lists the platform operations. */
export interface PlatformOperationList {
  readonly operations?: readonly PlatformOperationName[];
  readonly paths?: Readonly<Partial<Record<PlatformOperationName, string>>>;
}

const NAMES = Object.keys(PLATFORM_OPERATIONS) as PlatformOperationName[];

const isName = (name: unknown): name is PlatformOperationName =>
  typeof name === 'string' && Object.hasOwn(PLATFORM_OPERATIONS, name);

/** Edit distance, to suggest the name meant by a typo. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(
        (row[j] ?? 0) + 1,
        (next[j - 1] ?? 0) + 1,
        (row[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    row = next;
  }
  return row[b.length] ?? 0;
}

function unknownName(where: string, name: unknown): string {
  const text = String(name);
  const near = NAMES.find((known) => distance(known.toLowerCase(), text.toLowerCase()) <= 2);
  return `${where} names '${text}', which is no platform operation of the catalog (${
    near === undefined ? `the names: ${NAMES.join(', ')}` : `did you mean '${near}'?`
  })`;
}

const paramNames = (path: string) =>
  path
    .split('/')
    .filter((segment) => segment.startsWith(':'))
    .sort()
    .join(', ');

/**
 * Reads `platform: { operations, paths }`: the platform operations a target the kit cannot read serves, each
 * at the catalog's path unless `paths` moves it.
 *
 * @param list - the option as given
 * @returns the operations by name, or `undefined` when no list was given
 * @throws TypeError naming an unknown name, a path moved for an operation not listed, or a path that does not
 * start with `/` or names other path parameters than the catalog's
 */
export function listedOperations(
  list: PlatformOperationList | undefined,
): Map<PlatformOperationName, DeclaredOperation> | undefined {
  if (list?.operations === undefined && list?.paths === undefined) return undefined;
  if (list.operations !== undefined && !Array.isArray(list.operations))
    throw new TypeError(
      "platform.operations must be a list of catalog names, such as ['projects']",
    );
  if (list.paths !== undefined && (typeof list.paths !== 'object' || Array.isArray(list.paths)))
    throw new TypeError(
      "platform.paths must map names to paths, such as { projects: '/v2/projects' }",
    );
  const problems: string[] = [];
  const routes = new Map<PlatformOperationName, DeclaredOperation>();
  for (const name of list.operations ?? []) {
    if (!isName(name)) problems.push(unknownName('platform.operations', name));
    else
      routes.set(name, {
        method: PLATFORM_OPERATIONS[name].method,
        pattern: PLATFORM_OPERATIONS[name].path,
      });
  }
  for (const [name, path] of Object.entries(list.paths ?? {})) {
    if (!isName(name)) problems.push(unknownName('platform.paths', name));
    else if (!routes.has(name))
      problems.push(
        `platform.paths moves '${name}', which platform.operations does not list: add it to the list`,
      );
    else if (
      typeof path !== 'string' ||
      !path.startsWith('/') ||
      paramNames(path) !== paramNames(PLATFORM_OPERATIONS[name].path)
    )
      problems.push(
        `platform.paths puts '${name}' at "${String(path)}": give its path after the base, starting with "/" and naming the parameters of "${PLATFORM_OPERATIONS[name].path}" (${paramNames(PLATFORM_OPERATIONS[name].path) || 'none'})`,
      );
    else routes.set(name, { method: PLATFORM_OPERATIONS[name].method, pattern: path });
  }
  if (problems.length > 0) throw new TypeError(problems.join('; '));
  return routes;
}

/** What the connector's list and its own declaration disagree on. */
function disagreements(
  served: ReadonlyMap<PlatformOperationName, DeclaredOperation>,
  listed: ReadonlyMap<PlatformOperationName, DeclaredOperation>,
): string[] {
  const problems: string[] = [];
  for (const [name, route] of listed) {
    const own = served.get(name);
    if (own === undefined)
      problems.push(`it lists '${name}', which the connector does not declare`);
    else if (own.pattern !== route.pattern)
      problems.push(
        `it puts '${name}' at "${route.pattern}", but the connector serves it at "${own.pattern}" (set platform.paths)`,
      );
  }
  const left = [...served.keys()].filter((name) => !listed.has(name)).map((name) => `'${name}'`);
  if (left.length > 0)
    problems.push(
      `it leaves out ${left.length === 1 ? left[0] : `${left.slice(0, -1).join(', ')} and ${left.at(-1)}`}, which the connector declares`,
    );
  return problems;
}

/**
 * The platform operations the target serves: read from the connector when the kit serves one (a list given
 * too must agree with it, so that options shared with a run over HTTP cannot drift from the connector), else
 * from `platform: { operations, paths }`.
 *
 * @param connector - the connector the kit serves, if it serves one
 * @param list - the `platform` option
 * @returns the operations, or `undefined` when the target is not a connector and no list was given
 * @throws TypeError when the list names an unknown operation or a bad path, or disagrees with the connector
 */
export function declaredOperations(
  connector: Connector | undefined,
  list: PlatformOperationList | undefined,
): DeclaredOperations | undefined {
  const listed = listedOperations(list);
  if (connector === undefined)
    return listed === undefined ? undefined : { routes: listed, source: 'list' };
  const found = new Map<PlatformOperationName, DeclaredOperation>();
  for (const route of connector.compiled.routes) {
    const catalog = route.target.kind === 'operation' ? route.target.operation.catalog : undefined;
    if (isName(catalog)) found.set(catalog, { method: route.method, pattern: route.pattern });
  }
  // In the catalog's order, not the connector's: the checks call the operations alike however it lists them.
  const routes = new Map(
    NAMES.flatMap((name) => {
      const route = found.get(name);
      return route === undefined ? [] : [[name, route] as const];
    }),
  );
  const problems = listed === undefined ? [] : disagreements(routes, listed);
  if (problems.length > 0)
    throw new TypeError(
      `platform.operations does not match the connector '${connector.name}': ${problems.join('; ')}`,
    );
  return { routes, source: 'connector' };
}
