// The file the attachment round trip uploads.

/** The file the attachment check uploads: every byte value, a length no buffer size divides. */
export function roundTripFile(size = 100_003): Uint8Array {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + (i >> 8) + 7) % 256;
  return bytes;
}
