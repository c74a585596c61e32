import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';

// A body sent or answered with a content-encoding is scrubbed and checked as what it encodes: its
// compressed bytes would hide every secret from both. fetch decodes what it answers in the encodings below,
// a request's body is sent as the connector encoded it.

/** Servers send raw deflate under `deflate` as often as zlib's: both are read. */
const inflate = (bytes: Buffer): Buffer => {
  try {
    return inflateSync(bytes);
  } catch {
    return inflateRawSync(bytes);
  }
};

const DECODERS: Readonly<Record<string, (bytes: Buffer) => Buffer>> = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  deflate: inflate,
  br: brotliDecompressSync,
};

/** The codings of a `content-encoding` header, in the order they were applied, `identity` left out. */
export function contentCodings(header: string | readonly string[] | null | undefined): string[] {
  const text = typeof header === 'string' || header == null ? (header ?? '') : header.join(',');
  return text
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
}

/**
 * The bytes a body encodes under its `content-encoding`.
 *
 * @param bytes - the body as sent
 * @param header - its `content-encoding`
 * @returns the decoded bytes; `undefined` when a coding is unknown or the bytes are not in it
 */
export function decodeContent(
  bytes: Uint8Array,
  header: string | readonly string[] | null | undefined,
): Uint8Array | undefined {
  let result: Buffer = Buffer.from(bytes);
  for (const coding of contentCodings(header).reverse()) {
    const decode = DECODERS[coding];
    if (decode === undefined) return undefined;
    try {
      result = decode(result);
    } catch {
      return undefined;
    }
  }
  return result;
}

/**
 * The bytes of an answer fetch read: already decoded in the encodings it knows (decoded here if it was not),
 * `undefined` in one it does not.
 */
export function answerContent(bytes: Uint8Array, header: string | null): Uint8Array | undefined {
  const codings = contentCodings(header);
  if (codings.length === 0 || bytes.length === 0) return bytes;
  if (codings.some((coding) => DECODERS[coding] === undefined)) return undefined;
  return decodeContent(bytes, header) ?? bytes;
}
