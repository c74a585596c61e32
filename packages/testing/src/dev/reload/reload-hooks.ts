import { register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';

// Loads a connector's module graph afresh on each reload, by hand because no loader does this one thing: Node
// caches ES modules by URL and never unloads them, and tsx's `tsImport` gives a fresh copy of every file outside
// node_modules, workspace packages too, so a reloaded connector would get a core of its own (its errors no longer
// `instanceof` the handler's). These module hooks (Node's `module.register`, run off the main thread) give only
// the project's own files (under its root, outside node_modules) the importing module's generation as a query:
// each reload reads them again, while packages, the SDK among them, stay shared. They report each file they
// give a generation, so the watcher watches exactly the sources the connector loaded. Each generation stays
// in memory until the process ends, a few kilobytes per reload of a connector's sources.

/** The query parameter that carries a module's generation. */
export const GENERATION_PARAMETER = 'connector-sdk-dev';

const HOOKS = `
let root;
let port;
export function initialize(data) {
  ({ root, port } = data);
}
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  const parent = context.parentURL;
  if (parent === undefined || !result.url.startsWith(root) || result.url.includes('/node_modules/'))
    return result;
  const generation = new URL(parent).searchParams.get('${GENERATION_PARAMETER}');
  if (generation === null) return result;
  const url = new URL(result.url);
  url.searchParams.set('${GENERATION_PARAMETER}', generation);
  port.postMessage(url.pathname);
  return { ...result, url: url.href };
}
`;

/**
 * Registers the hooks for one project (once per dev server: hooks registered for other projects leave its files
 * alone), and calls `onFile` with the path of each of its files loaded with a generation.
 *
 * @param root - the project's folder: files under it (outside node_modules) reload
 * @param onFile - called with each file's path as it is loaded
 * @returns a function that stops calling `onFile` (Node cannot take hooks back; they then do nothing useful)
 * @internal
 */
export function watchLoadedFiles(root: string, onFile: (path: string) => void): () => void {
  const { port1, port2 } = new MessageChannel();
  port1.on('message', (path: string) => onFile(decodeURIComponent(path)));
  port1.unref();
  register(`data:text/javascript,${encodeURIComponent(HOOKS)}`, {
    data: { root: pathToFileURL(root.endsWith('/') ? root : `${root}/`).href, port: port2 },
    transferList: [port2],
  });
  return () => port1.close();
}

/**
 * The URL to import a module at for a generation: the project's files it imports get the same one.
 *
 * @internal
 */
export function atGeneration(url: URL, generation: number): string {
  const at = new URL(url);
  at.searchParams.set(GENERATION_PARAMETER, String(generation));
  return at.href;
}
