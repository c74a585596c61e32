import { ValidationError } from '../errors/errors.js';
import type { MultipartReader, PartHead } from './multipart-reader.js';

const UTF8 = new TextDecoder('utf-8', { fatal: true });

const inputError = (message: string) => new ValidationError(message, { code: 'INVALID_INPUT' });

/**
 * Reads the current part of an upload as a text field: at most `maxBytes`, valid UTF-8, each chunk taken from
 * the handler's budget of upload bytes in memory as it comes.
 *
 * @param hold - takes bytes from the budget, or throws
 * @returns the field's text
 * @throws ValidationError 400 for a field over `maxBytes` or not UTF-8
 * @internal
 */
export async function readTextField(
  reader: MultipartReader,
  head: PartHead,
  options: { readonly maxBytes: number; readonly hold: (bytes: number) => void },
): Promise<string> {
  const bytes = await reader.readAll(options.maxBytes, () =>
    inputError(`'body.${head.name}' is larger than ${options.maxBytes} bytes`),
  );
  options.hold(bytes.length);
  try {
    return UTF8.decode(bytes);
  } catch {
    throw inputError(`'body.${head.name}' is not valid UTF-8`);
  }
}
