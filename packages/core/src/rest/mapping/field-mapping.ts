// Field mappings: which of the end system's values each platform field is, both ways. Typed from the item's zod
// schema (a `from` the schema lacks, or a conversion of another type, fails to compile) and compiled once, when
// the entity is declared, into a reader and a writer.
import type { z } from 'zod';
import { ValidationError } from '../../errors/errors.js';
import { conversionOfType, convert, type Conversion, type FieldDataType } from './conversions.js';
import { pathSteps, readPath, writePath, type AtPath, type ItemPath } from './field-path.js';
import { schemaAt } from './schema-at.js';

/**
 * One platform field that is a value of the end system's item: at `from`, converted by `as`.
 *
 * @typeParam TItem - the item, as its schema parses it
 * @typeParam P - the path of the value in the item
 */
export type MappedField<TItem, P extends ItemPath<TItem>> = {
  /** Where the value is in the end system's item: a key, or a dotted path (`'status.name'`). */
  readonly from: P;
  /** The field's name in the platform's forms. @default its id */
  readonly name?: string;
  /**
   * How the value converts (`convert.date(pattern)`, `convert.json(schema)`, …). @default by the schema's type:
   * text, numbers and booleans as they are, lists as lists of strings
   */
  readonly as?: Conversion<NonNullable<AtPath<TItem, P>>, unknown>;
  /** Set by the end system only: the platform cannot write it. */
  readonly readOnly?: boolean;
  /** The platform must give it to create an entity. */
  readonly required?: boolean;
  /** The data type the entity type declares, when not the conversion's (`LOOKUP`, `HTML`, …). */
  readonly type?: FieldDataType;
  /** Extra keys of the field in the entity type's metadata (`timeUnit`, …). */
  readonly metadata?: Readonly<Record<string, unknown>>;
};

/** A platform field computed from the whole item: the platform reads it and cannot write it. */
export interface ComputedField<TItem, TValue> {
  /** The field's name in the platform's forms. @default its id */
  readonly name?: string;
  /** Its value, from the item. */
  readonly read: (item: TItem) => TValue;
  /** The data type the entity type declares. @default 'TEXT' */
  readonly type?: FieldDataType;
  /** Extra keys of the field in the entity type's metadata. */
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/** Any field mapping of items of type `TItem`. */
export type FieldOf<TItem> =
  | { [P in ItemPath<TItem>]: MappedField<TItem, P> }[ItemPath<TItem>]
  | ComputedField<TItem, unknown>;

/**
 * The platform's value of one field mapping of items of type `TItem`: its conversion's, its function's, or for a
 * value mapped as it is, the value itself (text, a number, a boolean), a list as strings, anything else as text.
 */
export type FieldValue<TItem, F> =
  F extends ComputedField<never, infer V>
    ? V
    : F extends { readonly as: Conversion<never, infer P> }
      ? P
      : F extends { readonly from: infer P extends string }
        ? AtPath<TItem, P> extends readonly unknown[]
          ? string[]
          : AtPath<TItem, P> extends string | number | boolean | null | undefined
            ? AtPath<TItem, P>
            : string
        : unknown;

/** The fields of an entity as the platform reads them, typed from its mappings. */
export type PlatformFields<TItem, F> = { -readonly [K in keyof F]: FieldValue<TItem, F[K]> };

/**
 * One compiled mapping.
 *
 * @internal
 */
export interface CompiledField {
  readonly id: string;
  readonly name: string;
  readonly dataType: FieldDataType;
  readonly dateFormat: string | undefined;
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly writable: boolean;
  readonly required: boolean;
  readonly steps: readonly string[] | undefined;
  readonly read: (item: unknown) => unknown;
  readonly write: z.ZodType | undefined;
  readonly order: (value: unknown) => number | string;
  /** The same mapping in the server info's time zone, for a date declared without a zone of its own. */
  readonly inZone?: (timeZone: string) => CompiledField;
}

const asText = (value: unknown) => String(value);

function compileOne(id: string, spec: FieldOf<unknown>, schema: z.ZodType): CompiledField {
  const base = { id, name: spec.name ?? id, metadata: spec.metadata ?? {} };
  if (!('from' in spec)) {
    const { read } = spec as ComputedField<unknown, unknown>;
    return {
      ...base,
      dataType: spec.type ?? 'TEXT',
      dateFormat: undefined,
      writable: false,
      required: false,
      steps: undefined,
      read,
      write: undefined,
      order: asText,
    };
  }
  const mapped = spec as unknown as MappedField<{ readonly value: unknown }, 'value'> & {
    readonly from: string;
  };
  const steps = pathSteps(mapped.from);
  const at = schemaAt(schema, steps);
  const element =
    at?.type === 'array'
      ? (at as unknown as { element: { type?: string } }).element.type
      : undefined;
  const conversion = (mapped.as ??
    (at?.type === 'string' || at?.type === 'enum' || at?.type === 'literal'
      ? convert.text(at as unknown as z.ZodType<string>)
      : conversionOfType(at?.type, element))) as Conversion<unknown, unknown>;
  return {
    ...base,
    dataType: mapped.type ?? conversion.dataType,
    dateFormat: conversion.dateFormat,
    writable: mapped.readOnly !== true,
    required: mapped.required === true,
    steps,
    read: (item) => {
      const value = readPath(item, steps);
      return value === undefined || value === null ? value : conversion.read(value);
    },
    write: conversion.write,
    order: conversion.order ?? asText,
    ...(conversion.inZone === undefined
      ? {}
      : {
          inZone: (timeZone: string) =>
            compileOne(
              id,
              { ...mapped, as: conversion.inZone?.(timeZone) } as unknown as FieldOf<unknown>,
              schema,
            ),
        }),
  };
}

/**
 * The mappings in the server info's time zone: each date declared without a zone of its own takes it.
 *
 * @param fields - the compiled mappings
 * @param timeZone - the server info's time zone
 */
export const inZone = (fields: readonly CompiledField[], timeZone: string): CompiledField[] =>
  fields.map((field) => field.inZone?.(timeZone) ?? field);

/**
 * Compiles an entity's mappings.
 *
 * @param fields - the mappings by platform field id
 * @param schema - the item's schema
 * @returns the compiled fields, in declaration order
 */
export function compileFields(
  fields: Readonly<Record<string, FieldOf<unknown>>>,
  schema: z.ZodType,
): CompiledField[] {
  return Object.entries(fields).map(([id, spec]) => compileOne(id, spec, schema));
}

/**
 * The platform's fields of an item: every mapped value the item has (a missing one is left out).
 *
 * @param fields - the compiled mappings
 * @param item - the item, parsed by its schema
 * @param only - the field ids the platform asked for (`fieldList`); all when empty
 */
export function readFields(
  fields: readonly CompiledField[],
  item: unknown,
  only?: ReadonlySet<string>,
): Record<string, unknown> {
  const read: Record<string, unknown> = {};
  for (const field of fields) {
    if (only !== undefined && only.size > 0 && !only.has(field.id)) continue;
    const value = field.read(item);
    if (value !== undefined) read[field.id] = value;
  }
  return read;
}

function problem(where: string, id: string, issue: z.core.$ZodIssue | undefined): string {
  const path = [...(where === '' ? [] : [where]), id, ...(issue?.path ?? []).map(String)].join('.');
  return `'${path}' ${issue?.message ?? 'is not valid'}`;
}

/** What a write may know about the entity: its type's id, and the id of the entity it changes (none: a new one). */
export interface WriteTarget {
  readonly typeId: string;
  /** Where the platform sent the values, for messages. @default 'fields' */
  readonly where?: string;
  readonly idField: string;
  readonly entityId?: string | undefined;
}

/**
 * The end system's change from the platform's fields ("set only what is sent"): each value checked and
 * converted, and set at its path.
 *
 * @param fields - the compiled mappings
 * @param sent - the fields the platform sent
 * @param target - the entity type and, for an update, the entity
 * @returns the change, laid out as the end system's item
 * @throws ValidationError naming the first field that is not a field, cannot be written, or is wrong
 */
export function writeFields(
  fields: readonly CompiledField[],
  sent: Readonly<Record<string, unknown>>,
  target: WriteTarget,
): Record<string, unknown> {
  const byId = new Map(fields.map((field) => [field.id, field]));
  const change: Record<string, unknown> = {};
  const at = target.where ?? 'fields';
  const named = (id: string) => `'${at === '' ? id : `${at}.${id}`}'`;
  for (const [id, value] of Object.entries(sent)) {
    const field = byId.get(id);
    if (field === undefined)
      throw new ValidationError(
        `${named(id)} is not a field of the ${target.typeId} type: its fields are ${fields.map((f) => f.id).join(', ')}`,
      );
    // The platform may send back the id it read; any other is a move the end system cannot make.
    if (id === target.idField && target.entityId !== undefined && String(value) === target.entityId)
      continue;
    if (!field.writable || field.steps === undefined || field.write === undefined)
      throw new ValidationError(`${named(id)} is set by the end system: it cannot be written`);
    const result = field.write.safeParse(value);
    if (!result.success) throw new ValidationError(problem(at, id, result.error.issues[0]));
    writePath(change, field.steps, result.data);
  }
  if (target.entityId === undefined)
    for (const field of fields)
      if (field.required && !Object.hasOwn(sent, field.id))
        throw new ValidationError(`${named(field.id)} is required for a new ${target.typeId}`);
  return change;
}

/**
 * What a value the platform sends compares by (a date's instant, a number), for a search or a filter: a value
 * that does not convert is a 400 naming it.
 *
 * @param field - the compiled mapping
 * @param value - the platform's value, as text
 * @param name - the parameter or field it came in, for the message
 * @throws ValidationError when the value does not convert (a date not in the field's pattern)
 */
export function orderOf(field: CompiledField, value: string, name: string): number | string {
  try {
    const order = field.order(value);
    if (typeof order === 'number' && Number.isNaN(order)) throw new TypeError('not a number');
    return order;
  } catch (error) {
    const problem =
      field.dateFormat === undefined
        ? 'is not valid'
        : `must follow the pattern ${field.dateFormat}`;
    throw new ValidationError(`'${name}' ${problem}`, { cause: error });
  }
}
