import { trace as traceApi, metrics as metricsApi } from '@opentelemetry/api';
import {
  AggregationTemporality,
  MeterProvider,
  MetricReader,
  type DataPoint,
  type Histogram,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';

/** A metric reader the test collects from when it wants. */
class CollectingReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** A flat data point: the metric's name, its attributes and its value (a number or a histogram). */
export interface Point {
  readonly name: string;
  readonly attributes: Record<string, unknown>;
  readonly value: number | Histogram;
}

/** OpenTelemetry's SDK with in-memory exporters, not registered globally. */
export function inMemoryTelemetry() {
  const spans = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(spans)],
  });
  const reader = new CollectingReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    tracerProvider,
    meterProvider,
    /** The spans ended so far. */
    finished: (): ReadableSpan[] => spans.getFinishedSpans(),
    reset: () => spans.reset(),
    async points(): Promise<Point[]> {
      const { resourceMetrics } = await reader.collect();
      return resourceMetrics.scopeMetrics.flatMap((scope) =>
        scope.metrics.flatMap((metric) =>
          (metric.dataPoints as DataPoint<number | Histogram>[]).map((point) => ({
            name: metric.descriptor.name,
            attributes: { ...point.attributes },
            value: point.value,
          })),
        ),
      );
    },
    async shutdown() {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
      traceApi.disable();
      metricsApi.disable();
    },
  };
}
