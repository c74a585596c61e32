export {
  ScaffoldError,
  createConnector,
  type CreateConnectorOptions,
  type CreatedConnector,
} from './create-connector.js';
export { packageNameProblem } from './package-name.js';
export { TEMPLATES, type Template, type TemplateName } from './templates.js';
export { runCli, type CliIo } from './run-cli.js';
