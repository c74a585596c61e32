export { ScaffoldError, createConnector, type CreateConnectorOptions } from './create-connector.js';
export { packageNameProblem } from './package-name.js';
export { TEMPLATE_FILES } from './template-files.js';
export { runCli, type CliIo } from './run-cli.js';
