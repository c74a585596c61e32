import type { z } from 'zod';
import { compileRoute, routeShape, sortRoutes, type Route } from '../handler/request/router.js';
import { headerKey, isRiskyName, sessionNameProblem } from '../security/header-safety.js';
import { looksSecret } from '../security/secret-names.js';
import { fastParserOf, type FastParse } from './fast-parse.js';
import type { FieldShape } from './field.js';
import { fieldKind } from './field-kind.js';
import { holdsSecretField, isMarkedSecret, isSecretField } from './secret-field.js';
import type { Operation } from './operation.js';

/** A field with what the handler needs to read it fast. */
export interface CompiledField {
  /** The key (configuration) or header name (session) as declared. */
  readonly key: string;
  /** The key lower-cased, for header lookups. */
  readonly lower: string;
  readonly schema: z.ZodType;
  /** Its value must be kept out of logs and error bodies. */
  readonly secret: boolean;
  /** Its value holds a secret field inside (JSON with a `field.secret()` property): every leaf is secret. */
  readonly secretInside: boolean;
  /** The field accepts "no value", so an empty string counts as absent. */
  readonly optional: boolean;
  /** The field helper's own parser, when the field is one as made (see `withFastParse`). */
  readonly fast: FastParse | undefined;
  /** A `field.url()`: initialize judges its host by the egress policy before connector code runs. */
  readonly url: boolean;
}

/** What a route leads to. */
export type RouteTarget =
  | { readonly kind: 'initialize' }
  | { readonly kind: 'cleanup' }
  | { readonly kind: 'discover' }
  | { readonly kind: 'operation'; readonly name: string; readonly operation: Operation<unknown> };

/** @internal a connector definition checked and compiled for the handler. */
export interface CompiledConnector {
  readonly name: string;
  readonly version: string;
  readonly configFields: readonly CompiledField[];
  /** The config fields by key: the order a configuration is fingerprinted in, sorted once here. */
  readonly configFieldsByKey: readonly CompiledField[];
  readonly sessionFields: readonly CompiledField[];
  /** The lower-cased names of the session fields that hold secrets. */
  readonly secretSessionNames: ReadonlySet<string>;
  /** The lower-cased risky names the connector allows as session entries (`allowRiskySessionHeaders`). */
  readonly allowedRiskyNames: ReadonlySet<string>;
  readonly routes: readonly Route<RouteTarget>[];
}

interface Definition {
  readonly name: string;
  readonly version: string;
  readonly config: FieldShape;
  readonly session: FieldShape;
  readonly operations: Readonly<Record<string, Operation<unknown>>>;
  readonly allowRiskySessionHeaders?: readonly string[] | undefined;
}

const BUILT_IN_ROUTES: readonly Route<RouteTarget>[] = [
  compileRoute('POST', '/initialize/:sdkSessionId', { kind: 'initialize' }),
  compileRoute('POST', '/cleanup/:sdkSessionId', { kind: 'cleanup' }),
  compileRoute('GET', '/discover', { kind: 'discover' }),
];

function compileFields(
  shape: FieldShape,
  isHeader: boolean,
  allowRisky: ReadonlySet<string> = new Set(),
): CompiledField[] {
  return Object.entries(shape).map(([key, schema]) => {
    if (isHeader) {
      const problem = sessionNameProblem(key, allowRisky);
      if (problem) throw new TypeError(`Session field "${key}" ${problem}`);
    }
    const declaredSecret = isSecretField(schema);
    if (!declaredSecret && isMarkedSecret(schema)) {
      throw new TypeError(
        `${isHeader ? 'Session' : 'Configuration'} field "${key}" is declared with field.secret(), but the SDK ` +
          'no longer reads it as secret through the zod methods chained on it (a zod release changed how ' +
          'schemas are copied), so its value would not be redacted. Pass the limits to field.secret({ ' +
          'minLength, maxLength, pattern }) instead of chaining them, and report this with your zod version.',
      );
    }
    const secretInside = !declaredSecret && holdsSecretField(schema);
    return {
      key,
      lower: headerKey(key),
      schema,
      secret: declaredSecret || secretInside || (isHeader && looksSecret(key)),
      secretInside,
      optional: schema.safeParse(undefined).success,
      fast: fastParserOf(schema),
      url: fieldKind(schema)?.fieldType === 'URL',
    };
  });
}

/**
 * Checks a connector definition and compiles it.
 *
 * @throws TypeError naming the first problem found
 * @internal
 */
export function compileConnector(definition: Definition): CompiledConnector {
  const { name, version } = definition;
  if (typeof name !== 'string' || name.trim() === '')
    throw new TypeError('A connector needs a name');
  if (typeof version !== 'string' || version.trim() === '')
    throw new TypeError('A connector needs a version');

  const allowedRiskyNames = new Set<string>();
  for (const name of definition.allowRiskySessionHeaders ?? []) {
    const lower = String(name).toLowerCase();
    if (!isRiskyName(lower))
      throw new TypeError(
        `allowRiskySessionHeaders names "${String(name)}", which is not a risky header: remove it`,
      );
    allowedRiskyNames.add(lower);
  }
  const sessionFields = compileFields(definition.session, true, allowedRiskyNames);
  const lowerNames = new Set<string>();
  for (const { key, lower } of sessionFields) {
    if (lowerNames.has(lower))
      throw new TypeError(`Session field "${key}" is declared twice (header names ignore case)`);
    lowerNames.add(lower);
  }

  const routes = [...BUILT_IN_ROUTES];
  for (const [operationName, operation] of Object.entries(definition.operations)) {
    const route = compileRoute(operation.method, operation.path, {
      kind: 'operation',
      name: operationName,
      operation,
    } as const);
    const clash = routes.find(
      (r) => r.method === route.method && routeShape(r) === routeShape(route),
    );
    if (clash) {
      const other =
        clash.target.kind === 'operation' ? `operation "${clash.target.name}"` : 'a built-in route';
      throw new TypeError(
        `Operation "${operationName}" (${route.method} ${route.pattern}) clashes with ${other}`,
      );
    }
    routes.push(route);
  }

  const configFields = compileFields(definition.config, false);
  return {
    name,
    version,
    configFields,
    configFieldsByKey: [...configFields].sort((a, b) =>
      a.key < b.key ? -1 : a.key > b.key ? 1 : 0,
    ),
    sessionFields,
    secretSessionNames: new Set(sessionFields.filter((f) => f.secret).map((f) => f.lower)),
    allowedRiskyNames,
    routes: sortRoutes(routes),
  };
}
