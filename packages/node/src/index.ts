export { createRequestListener, type ConnectorRequestListener } from './create-request-listener.js';
export {
  createNodeHandler,
  sendError,
  type NodeHandler,
  type NodeRequestOverrides,
  type RequestListenerOptions,
} from './handle-node-request.js';
export { serve, type ConnectorServer, type ServeOptions } from './serve.js';
