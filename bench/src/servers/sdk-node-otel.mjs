// @connector-sdk/node with OpenTelemetry on: @connector-sdk/opentelemetry with the OpenTelemetry SDK
// as a production set-up has it, a batching span processor and a periodic metric reader. Their exporters
// discard what they are handed, so the figure is what recording costs the connector's process, not a
// collector's network.
import { instrumentConnectorSdk } from '@connector-sdk/opentelemetry';
import {
  AggregationTemporality,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { start as startSdkNode } from './sdk-node.mjs';

const discard = {
  export: (_items, done) => done({ code: 0 }),
  shutdown: () => Promise.resolve(),
  forceFlush: () => Promise.resolve(),
};

/** @param {{ port: number }} options */
export async function start({ port }) {
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new BatchSpanProcessor(discard)],
  });
  const meterProvider = new MeterProvider({
    readers: [
      new PeriodicExportingMetricReader({
        exporter: {
          ...discard,
          selectAggregationTemporality: () => AggregationTemporality.CUMULATIVE,
        },
        exportIntervalMillis: 10_000,
      }),
    ],
  });
  const instrumentation = instrumentConnectorSdk({ tracerProvider, meterProvider });
  const running = await startSdkNode({ port });
  return {
    port: running.port,
    close: async () => {
      await running.close();
      instrumentation.disable();
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
    },
  };
}
