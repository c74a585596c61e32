export {
  connectorMiddleware,
  type ConnectorErrorHandler,
  type ConnectorRequestHandler,
  type ExpressRequestLike,
  type NextFunction,
} from './connector-middleware.js';
