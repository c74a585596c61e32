import { gunzipSync } from 'node:zlib';

// A file an end system answers or a connector uploads may be compressed whatever its content-encoding says (a
// `.gz` download is `application/gzip`, no content-encoding): its bytes hide every secret in it from the
// scrub and from the proof. A gzip file is read; any other compressed format is refused.

/** The magic numbers of compressed file formats (their first bytes), by name. */
const FORMATS: readonly (readonly [string, readonly number[]])[] = [
  ['gzip', [0x1f, 0x8b]],
  ['zip', [0x50, 0x4b, 0x03, 0x04]],
  ['bzip2', [0x42, 0x5a, 0x68]],
  ['xz', [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]],
  ['zstd', [0x28, 0xb5, 0x2f, 0xfd]],
  ['7z', [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]],
  ['rar', [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07]],
];

/** Most bytes a gzip file may decompress to for its content to be scanned: past it, it is refused. */
const MOST_INFLATED_BYTES = 64 * 1024 * 1024;

/**
 * The compressed format a body's bytes are in, by their magic number.
 *
 * @param bytes - a body
 * @returns the format's name (`gzip`, `zip`, …), `undefined` for anything else
 */
export function compressedFormat(bytes: Uint8Array): string | undefined {
  for (const [name, magic] of FORMATS)
    if (bytes.length >= magic.length && magic.every((byte, at) => bytes[at] === byte)) return name;
  return undefined;
}

/**
 * What a compressed file holds, when the recorder can read it: a gzip file of at most 64 MiB once inflated.
 *
 * @param bytes - the file
 * @param format - its format, from {@link compressedFormat}
 * @returns its content; `undefined` when it cannot be read
 */
export function inflatedFile(bytes: Uint8Array, format: string): Buffer | undefined {
  if (format !== 'gzip') return undefined;
  try {
    return gunzipSync(bytes, { maxOutputLength: MOST_INFLATED_BYTES });
  } catch {
    return undefined;
  }
}
