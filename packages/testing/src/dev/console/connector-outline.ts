import { describeConfig, z, type Connector, type FieldPresentation } from '@connector-sdk/core';

// What the console's forms are made from: the connector's own declarations, read when it (re)loads. Config fields
// come from `describeConfig` (the platform form's own metadata: type, required, default, a secret's PASSWORD);
// each operation's path parameters, query and body come from its zod schemas as JSON Schema, so a platform
// operation's form has the catalog's ids, paging and search tree, and an operation of the author's its own.

/** A configuration field as the console's form shows it. */
export interface OutlineField {
  readonly key: string;
  /** The platform form's type: `PASSWORD` for a secret, `JSON`, `URL`, `NUMERIC`, `CHECKBOX`, `DROP_DOWN`… */
  readonly fieldType: string;
  readonly required: boolean;
  readonly values?: readonly string[];
  readonly defaultValue?: string;
}

/** A later operation as the console's form shows it. */
export interface OutlineOperation {
  readonly name: string;
  readonly method: string;
  readonly path: string;
  /** The platform operation it implements, when it is one of the catalog's. */
  readonly catalog?: string;
  /** JSON Schemas of its path parameters, query and body (absent: it takes none, or none can be drawn). */
  readonly params?: unknown;
  readonly query?: unknown;
  readonly body?: unknown;
  /** For an upload, the file part's name and its text fields. */
  readonly upload?: { readonly file: string; readonly fields: readonly string[] };
}

/** The connector as the console shows it. */
export interface ConnectorOutline {
  readonly name: string;
  readonly version: string;
  readonly config: readonly OutlineField[];
  readonly operations: readonly OutlineOperation[];
}

/**
 * The keys of the connector's secret configuration fields (a `field.secret()`, a JSON field holding one): what
 * is secret is the connector's to say, whatever flag a caller gave a value.
 *
 * @internal
 */
export function secretConfigKeys(connector: Connector): Set<string> {
  return new Set(
    connector.compiled.configFields
      .filter((field) => field.secret || field.secretInside)
      .map((field) => field.key),
  );
}

/** A schema as JSON Schema for a form, or `undefined` when it has none that can be drawn. */
function jsonSchema(schema: z.ZodType | undefined): unknown {
  if (schema === undefined) return undefined;
  try {
    return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
  } catch {
    return {};
  }
}

/**
 * The search tree of an entity search, as the form shows it: the catalog parses it by hand (a tree of any depth),
 * so JSON Schema cannot draw it; the form starts from the platform's typical search instead.
 */
const SEARCH_TREE = {
  type: 'object',
  description:
    'the search tree: a leaf { field, condition, value } or { condition: and|or|not, criterias }',
  examples: [
    {
      condition: 'and',
      criterias: [{ field: 'updated', condition: '>', value: '2026-01-01T00:00:00Z' }],
    },
  ],
};

/** A catalog operation's body schema, with the search tree drawn where JSON Schema could not. */
function bodyOf(catalog: string | undefined, schema: unknown): unknown {
  if (catalog !== 'searchEntities' || typeof schema !== 'object' || schema === null) return schema;
  const object = schema as { properties?: Record<string, unknown> };
  return { ...object, properties: { ...object.properties, query: SEARCH_TREE } };
}

/** The path parameters of a route pattern such as `/issues/:id`, as a schema when the operation has none. */
function paramsOf(path: string): unknown {
  const names = [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1] as string);
  if (names.length === 0) return undefined;
  return {
    type: 'object',
    properties: Object.fromEntries(names.map((name) => [name, { type: 'string' }])),
    required: names,
  };
}

/**
 * The connector's configuration fields and operations, for the console's forms.
 *
 * @param connector - the connector as loaded
 * @returns its outline, JSON-serialisable
 * @internal
 */
export function outlineOf(connector: Connector): ConnectorOutline {
  const { config } = connector.adapter;
  const presentation = Object.fromEntries(
    Object.keys(config).map((key): [string, FieldPresentation] => [key, { displayName: key }]),
  );
  const fields = describeConfig(config, presentation).map((field): OutlineField => ({
    key: field.internalName,
    fieldType: field.fieldType,
    required: field.required,
    ...(Array.isArray(field.lookup?.staticValues)
      ? {
          values: (field.lookup.staticValues as readonly { internalName: string }[]).map(
            (value) => value.internalName,
          ),
        }
      : {}),
    // A secret's default is a secret too: the page never gets it.
    ...(field.defaultValue === undefined || field.fieldType === 'PASSWORD'
      ? {}
      : { defaultValue: field.defaultValue }),
  }));
  const operations = connector.compiled.routes.flatMap((route): OutlineOperation[] => {
    if (route.target.kind !== 'operation') return [];
    const { name, operation } = route.target;
    const { schemas } = operation;
    const params = jsonSchema(schemas.params) ?? paramsOf(operation.path);
    const query = jsonSchema(schemas.query);
    const body = bodyOf(operation.catalog, jsonSchema(schemas.body));
    const upload = schemas.upload;
    return [
      {
        name,
        method: operation.method,
        path: operation.path,
        ...(operation.catalog === undefined ? {} : { catalog: operation.catalog }),
        ...(params === undefined ? {} : { params }),
        ...(query === undefined ? {} : { query }),
        ...(body === undefined ? {} : { body }),
        ...(upload === undefined
          ? {}
          : {
              upload: {
                file: upload.file,
                fields: [...(upload.required ?? []), ...(upload.optional ?? [])],
              },
            }),
      },
    ];
  });
  return { name: connector.name, version: connector.version, config: fields, operations };
}
