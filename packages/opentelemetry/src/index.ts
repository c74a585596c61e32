export {
  instrumentConnectorSdk,
  type ConnectorSdkInstrumentation,
  type ConnectorSdkInstrumentationOptions,
} from './instrument-connector-sdk.js';
