// Paths into an end system's item (`'status.name'`), typed from its zod schema so that a mapping naming a field
// the schema lacks fails to compile, and read and written at run time.

/**
 * Every dotted path into `T`, four objects deep: `'id' | 'status' | 'status.name' | …`. Lists, dates and
 * primitives are where a path stops (a multi-valued field maps a whole list). Only the keys `T` names count: a
 * `z.looseObject` keeps unknown keys, which a mapping cannot name, so a typo does not pass as one of them.
 */
export type ItemPath<T, D extends number = 5> = [D] extends [never]
  ? never
  : T extends
        string | number | boolean | bigint | symbol | null | undefined | Date | readonly unknown[]
    ? never
    : {
        [
          K in keyof {
            [N in keyof T as string extends N ? never : number extends N ? never : N]: T[N];
          } &
            string
        ]:
          | K
          | (NonNullable<T[K]> extends
              | string
              | number
              | boolean
              | bigint
              | symbol
              | null
              | undefined
              | Date
              | readonly unknown[]
              ? never
              : `${K}.${ItemPath<NonNullable<T[K]>, [never, 0, 1, 2, 3, 4][D]>}`);
      }[keyof {
        [N in keyof T as string extends N ? never : number extends N ? never : N]: T[N];
      } &
        string];

/** The type at path `P` of `T` (`undefined` included where a step may be missing). */
export type AtPath<T, P extends string> = P extends `${infer K}.${infer Rest}`
  ? K extends keyof NonNullable<T>
    ? AtPath<NonNullable<T>[K], Rest> | (undefined extends T ? undefined : never)
    : never
  : P extends keyof NonNullable<T>
    ? NonNullable<T>[P] | (undefined extends T ? undefined : never)
    : never;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Names an object key may not have when a path writes it: they would reach an object's prototype. */
const UNSAFE = new Set(['__proto__', 'prototype', 'constructor']);

/**
 * The steps of a dotted path, checked once when a mapping is declared.
 *
 * @throws TypeError for an empty step or one that would reach a prototype
 */
export function pathSteps(path: string): readonly string[] {
  const steps = path.split('.');
  for (const step of steps)
    if (step === '' || UNSAFE.has(step))
      throw new TypeError(`'${path}' is not a path into the end system's item`);
  return steps;
}

/** The value at `steps` of `item`; `undefined` where a step is missing. */
export function readPath(item: unknown, steps: readonly string[]): unknown {
  let value = item;
  for (const step of steps) {
    if (!isRecord(value) || !Object.hasOwn(value, step)) return undefined;
    value = value[step];
  }
  return value;
}

/** Sets the value at `steps` of `target`, making the objects on the way. */
export function writePath(
  target: Record<string, unknown>,
  steps: readonly string[],
  value: unknown,
): void {
  let at = target;
  for (const step of steps.slice(0, -1)) {
    const next = Object.hasOwn(at, step) ? at[step] : undefined;
    if (isRecord(next)) at = next;
    else at = at[step] = {};
  }
  at[steps[steps.length - 1] as string] = value;
}

/**
 * `change` laid over `base`, objects merged key by key (a replace that sends the whole item keeps what the change
 * leaves out); lists and other values replaced.
 */
export function mergeItems(
  base: unknown,
  change: Record<string, unknown>,
): Record<string, unknown> {
  const merged: Record<string, unknown> = isRecord(base) ? { ...base } : {};
  for (const [key, value] of Object.entries(change))
    merged[key] = isRecord(value) && isRecord(merged[key]) ? mergeItems(merged[key], value) : value;
  return merged;
}
