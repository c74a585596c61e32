export { createRequestListener, type ConnectorRequestListener } from './create-request-listener.js';
export {
  createNodeHandler,
  type NodeHandler,
  type RequestListenerOptions,
} from './handle-node-request.js';
export type { NodeRequestOverrides } from './node-connector-request.js';
export { serve, type ConnectorServer, type ServeOptions } from './serve.js';
