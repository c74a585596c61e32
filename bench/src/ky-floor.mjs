// The ky floor's end-system call: what a careful user of ky writes by hand for the bench's later call
// that reads from the end system. One ky instance made at start-up; per call the same request the SDK's client
// sends (the session's URL as prefix, its bearer token, JSON, the platform's signal, ky's default timeout and the
// SDK's retry rules), and failures answered by hand. The SDK's end-system call is judged against it.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { fail, ok, readSession } from './hand-written.mjs';

// ky is core's dependency, not the bench's: the floor loads the very copy the SDK's client runs on.
const fromCore = createRequire(import.meta.resolve('@connector-sdk/core/package.json'));
const { default: ky, isHTTPError } = await import(pathToFileURL(fromCore.resolve('ky')).href);

const endSystem = ky.create({
  headers: { accept: 'application/json' },
  retry: {
    limit: 2,
    methods: ['get', 'head', 'options', 'put', 'delete'],
    statusCodes: [429, 503],
  },
});

/**
 * A later call that reads from the end system with ky.
 *
 * @param {Record<string, string | string[] | undefined>} headers - lower-cased request headers
 * @param {string} id - from the path
 * @param {AbortSignal} signal - aborted when the client goes away
 */
export async function getRemote(headers, id, signal) {
  const session = readSession(headers);
  if (session.failure) return session.failure;
  try {
    const issue = await endSystem
      .get(`issues/${encodeURIComponent(id)}`, {
        prefixUrl: session.data['x-acme-url'],
        headers: { authorization: session.data.authorization },
        signal,
      })
      .json();
    return ok(issue);
  } catch (error) {
    if (isHTTPError(error))
      return fail(502, 'END_SYSTEM_ERROR', `The end system answered ${error.response.status}`);
    return fail(502, 'END_SYSTEM_UNREACHABLE', 'The end system could not be reached');
  }
}
