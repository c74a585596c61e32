// @connector-sdk/node with OpenTelemetry on: @connector-sdk/opentelemetry with the OpenTelemetry SDK as a
// production set-up has it (otel-sdk.mjs).
import { instrumentConnectorSdk } from '@connector-sdk/opentelemetry';
import { discardingTelemetry } from '../otel-sdk.mjs';
import { start as startSdkNode } from './sdk-node.mjs';

/** @param {{ port: number }} options */
export async function start({ port }) {
  const telemetry = discardingTelemetry();
  const instrumentation = instrumentConnectorSdk(telemetry);
  const running = await startSdkNode({ port });
  return {
    port: running.port,
    close: async () => {
      await running.close();
      instrumentation.disable();
      await telemetry.shutdown();
    },
  };
}
