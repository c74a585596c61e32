export {
  createFetchHandler,
  type FetchHandler,
  type FetchHandlerOptions,
} from './create-fetch-handler.js';
export type { RemoteAddressOf } from './remote-address.js';
