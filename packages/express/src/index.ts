export {
  connectorMiddleware,
  type ConnectorErrorHandler,
  type ConnectorRequestHandler,
  type NextFunction,
} from './connector-middleware.js';
export type { ExpressRequestLike } from './express-request.js';
