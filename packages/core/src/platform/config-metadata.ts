import type { z } from 'zod';
import { fieldKind } from '../connector/field-kind.js';
import type { FieldShape } from '../connector/field.js';
import type { PlatformAnswer } from './platform-builders.js';

/**
 * A configuration field as connector metadata shows it on the platform's form.
 *
 * @example
 * ```ts
 * import {
 *   describeConfig,
 *   field,
 *   type ConfigFieldMetadata,
 * } from '@connector-sdk/core';
 *
 * const fields: ConfigFieldMetadata[] = describeConfig(
 *   { url: field.url() },
 *   { url: { displayName: 'Tracker URL' } },
 * );
 * ```
 */
export type ConfigFieldMetadata = PlatformAnswer<'connectorMetadata'>['fields'][number];

/**
 * How the platform's form shows one configuration field: what only a person can say. What the field is
 * (its key, whether it is required, its type, a secret's `PASSWORD`, an enum's values, a default) comes from
 * the field's declaration.
 *
 * @example
 * ```ts
 * import {
 *   describeConfig,
 *   field,
 *   type FieldPresentation,
 * } from '@connector-sdk/core';
 *
 * const token: FieldPresentation = {
 *   displayName: 'API token',
 *   tooltip: 'Create one under Settings › API in Acme',
 *   fieldOrder: 2,
 * };
 * describeConfig({ token: field.secret() }, { token });
 * ```
 */
export interface FieldPresentation {
  /** The label. */
  readonly displayName: string;
  /** Help shown beside it. */
  readonly tooltip?: string | undefined;
  /**
   * Show it differently than its kind suggests: `TEXT_AREA` for long text, `RADIO_BUTTON` for a few
   * choices, `XML`. A secret field is always `PASSWORD`.
   */
  readonly fieldType?: ConfigFieldMetadata['fieldType'] | undefined;
  /** Its choices, when they are not an enum field's values. */
  readonly lookup?: ConfigFieldMetadata['lookup'];
  /** A check the form makes before sending. */
  readonly validation?: ConfigFieldMetadata['validation'];
  /** Its place on the form. */
  readonly fieldOrder?: number | undefined;
  /** The field whose value shows this one. */
  readonly parent?: ConfigFieldMetadata['parent'];
  /** The screens that show it. */
  readonly screens?: ConfigFieldMetadata['screens'];
}

/** The default of a field declared with `.default(value)`, as the form's text. */
function defaultOf(schema: z.ZodType): string | undefined {
  const value: unknown = schema.safeParse(undefined).data;
  if (value === undefined || value === null) return undefined;
  return typeof value === 'object' ? JSON.stringify(value) : String(value as string);
}

/**
 * The configuration fields of the connector metadata, made from the connector's own `config` declaration, so
 * that the form the platform shows and the configuration the connector reads can never disagree: one entry
 * per field, in declaration order, with its key as `internalName`, `required` unless it is optional or has a
 * default, its type from the helper that made it (`field.url()` → `URL`, `field.secret()` → `PASSWORD`,
 * `field.enum([...])` → `DROP_DOWN` with those values, `field.json()` → `JSON`, `field.integer()` and
 * `field.port()` → `NUMERIC`, `field.boolean()` → `CHECKBOX`, `field.email()` → `EMAIL`, others
 * `TEXT_BOX`), and its default.
 *
 * @param config - the same object the connector passes as `config`
 * @param presentation - for every field, what the form shows: `displayName`, and optionally `tooltip`,
 *   `fieldOrder`, `screens`, `validation`, `parent`, another `fieldType`
 * @returns the `fields` of the connector metadata answer
 * @throws TypeError when a secret field is to be shown as anything but `PASSWORD`
 * @example
 * ```ts
 * import { defineConnector, describeConfig, field } from '@connector-sdk/core';
 *
 * const config = { url: field.url(), password: field.secret() };
 * defineConnector({
 *   name: 'acme',
 *   version: '1.0.0',
 *   config,
 *   session: {},
 *   initialize: () => ({}),
 *   operations: ({ platform }) => ({
 *     connectorMetadata: platform.connectorMetadata(() => ({
 *       enableFeatures: [],
 *       fields: describeConfig(config, {
 *         url: {
 *           displayName: 'Tracker URL',
 *           tooltip: 'The address you open in a browser',
 *         },
 *         password: { displayName: 'Password' },
 *       }),
 *     })),
 *   }),
 * });
 * ```
 */
export function describeConfig<S extends FieldShape>(
  config: S,
  presentation: { readonly [K in keyof S]: FieldPresentation },
): ConfigFieldMetadata[] {
  return Object.entries(config).map(([key, schema]) => {
    const shown: FieldPresentation | undefined = presentation[key as keyof S];
    if (shown === undefined) throw new TypeError(`describeConfig: no presentation for '${key}'`);
    const kind = fieldKind(schema);
    if (
      kind?.fieldType === 'PASSWORD' &&
      shown.fieldType !== undefined &&
      shown.fieldType !== 'PASSWORD'
    )
      throw new TypeError(
        `describeConfig: '${key}' is a secret field, so it is shown as PASSWORD, not ${shown.fieldType}`,
      );
    // A secret's default would be shown on the form in clear: never send it.
    const defaultValue = kind?.fieldType === 'PASSWORD' ? undefined : defaultOf(schema);
    const values = kind?.values;
    const entry: ConfigFieldMetadata = {
      ...shown,
      internalName: key,
      required: !schema.safeParse(undefined).success,
      fieldType:
        kind?.fieldType === 'PASSWORD'
          ? 'PASSWORD'
          : (shown.fieldType ?? kind?.fieldType ?? 'TEXT_BOX'),
      ...(defaultValue === undefined ? {} : { defaultValue }),
      ...(values === undefined || shown.lookup !== undefined
        ? {}
        : {
            lookup: {
              staticValues: values.map((value) => ({ internalName: value, displayName: value })),
            },
          }),
    };
    return entry;
  });
}
