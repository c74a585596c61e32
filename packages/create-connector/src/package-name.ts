/** npm's rules for a new package name: lower case, URL-safe, at most 214 characters, optionally scoped. */
const NAME = /^(?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;

/**
 * Why a name cannot be a new npm package's name, or `undefined` when it can.
 *
 * @param name - the proposed package name
 * @returns the reason, in words
 * @example
 * ```ts
 * packageNameProblem('My Connector'); // 'must be lower case …'
 * ```
 */
export function packageNameProblem(name: string): string | undefined {
  if (name === '') return 'is empty';
  if (name.length > 214) return 'is longer than 214 characters';
  if (name !== name.toLowerCase()) return 'must be lower case';
  if (/^[._]/.test(name)) return 'cannot start with a dot or an underscore';
  if (!NAME.test(name))
    return 'may only contain lower-case letters, digits and - . _ ~ (with an optional @scope/)';
  if (name === 'node_modules' || name === 'favicon.ico') return 'is reserved';
  return undefined;
}

/**
 * The connector's name for `discover`: the package name without its scope.
 *
 * @param name - a valid package name
 * @returns the unscoped part
 * @internal
 */
export function connectorName(name: string): string {
  return name.replace(/^@[^/]+\//, '');
}
