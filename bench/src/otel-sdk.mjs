// The OpenTelemetry SDK as a production connector sets it up, for the servers and tools that measure what
// recording costs: a batching span processor and a periodic metric reader. Their exporters discard what they are
// handed, so a figure is what recording costs the process, not a collector's network.
import {
  AggregationTemporality,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';

const discard = {
  export: (_items, done) => done({ code: 0 }),
  shutdown: () => Promise.resolve(),
  forceFlush: () => Promise.resolve(),
};

/** A tracer provider and a meter provider, not registered globally, and what shuts both down. */
export function discardingTelemetry() {
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
  return {
    tracerProvider,
    meterProvider,
    shutdown: async () => {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
    },
  };
}
