export {
  createRequestListener,
  handleNodeRequest,
  type ConnectorRequestListener,
  type RequestListenerOptions,
} from './create-request-listener.js';
export { serve, type ConnectorServer, type ServeOptions } from './serve.js';
