import { parseJavaDate } from '@connector-sdk/core';

// How the round-trip checks compare what they wrote with what they read back: by what values mean.

/** A field the entity type declares: its id, data type and date pattern. */
interface DeclaredField {
  readonly id?: unknown;
  readonly internalName?: unknown;
  readonly dataType?: unknown;
  readonly dateFormat?: unknown;
}

/**
 * Whether a value came back as it was sent: dates by the instant they name (in the field's declared pattern,
 * in `read.timeZone`), lists as the same items in any order, numbers and their text alike, everything else as
 * JSON.
 */
function sameValue(
  sent: unknown,
  back: unknown,
  read: { readonly field: DeclaredField | undefined; readonly timeZone: string },
) {
  if (sent === back) return true;
  const { field, timeZone } = read;
  const pattern = typeof field?.dateFormat === 'string' ? field.dateFormat : undefined;
  if (pattern !== undefined && typeof sent === 'string' && typeof back === 'string') {
    try {
      return (
        parseJavaDate(sent, pattern, timeZone).getTime() ===
        parseJavaDate(back, pattern, timeZone).getTime()
      );
    } catch {
      return false;
    }
  }
  if (Array.isArray(sent) && Array.isArray(back))
    return (
      sent.length === back.length &&
      [...sent].map(String).sort().join('\u0000') === [...back].map(String).sort().join('\u0000')
    );
  if (typeof sent === 'number' || typeof back === 'number') return String(sent) === String(back);
  return JSON.stringify(sent) === JSON.stringify(back);
}

/** The fields of `sent` that came back otherwise, as "'field': sent … read …". */
export function differences(
  sent: Readonly<Record<string, unknown>>,
  back: Readonly<Record<string, unknown>>,
  input: { readonly type: Readonly<Record<string, unknown>>; readonly timeZone: string },
): string[] {
  const declared = Array.isArray(input.type.fields) ? (input.type.fields as DeclaredField[]) : [];
  return Object.entries(sent)
    .filter(([name, value]) => {
      const field = declared.find((item) => item.id === name || item.internalName === name);
      return !sameValue(value, back[name], { field, timeZone: input.timeZone });
    })
    .map(
      ([name, value]) =>
        `'${name}': sent ${JSON.stringify(value)}, read ${back[name] === undefined ? 'nothing' : JSON.stringify(back[name])}`,
    );
}

/** The first offset where two byte arrays differ, or -1 when they are equal. */
export function firstDifference(a: Uint8Array, b: Uint8Array): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : length;
}

export const hex = (bytes: Uint8Array, at: number) =>
  [...bytes.subarray(at, at + 8)].map((byte) => byte.toString(16).padStart(2, '0')).join(' ');
