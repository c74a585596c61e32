// OpenTelemetry for the connector, on when CONNECTOR_OTEL=1: the Node SDK with the SDK's instrumentation, metrics
// for Prometheus to scrape, traces wherever the standard OTEL_* variables send them (OTLP to
// http://localhost:4318 unless OTEL_TRACES_EXPORTER or OTEL_EXPORTER_OTLP_ENDPOINT say otherwise;
// OTEL_TRACES_EXPORTER=console prints them). Loaded only when switched on, so the default run pays nothing.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The switch: `CONNECTOR_OTEL=1`. */
export const telemetryOn = process.env.CONNECTOR_OTEL === '1';

/** Tracing and metrics, running. */
export interface Telemetry {
  /** Where Prometheus scrapes the metrics (text format). */
  readonly metricsUrl: string;
  /** Flushes and stops. */
  close(): Promise<void>;
}

/**
 * Starts the Node SDK and the connector SDK's instrumentation, with the metrics served on 127.0.0.1.
 *
 * @param port - the metrics port (default `OTEL_EXPORTER_PROMETHEUS_PORT`, else 9464; 0 picks a free one)
 */
export async function startTelemetry(
  port = Number(process.env.OTEL_EXPORTER_PROMETHEUS_PORT ?? 9464),
): Promise<Telemetry> {
  const [{ NodeSDK }, { PrometheusExporter }, { instrumentConnectorSdk }] =
    await Promise.all([
      import('@opentelemetry/sdk-node'),
      import('@opentelemetry/exporter-prometheus'),
      import('@connector-sdk/opentelemetry'),
    ]);
  // The exporter's own server cannot tell which port 0 picked: serve its handler from ours.
  const exporter = new PrometheusExporter({ preventServerStart: true });
  const sdk = new NodeSDK({
    serviceName: 'issue-tracker-connector',
    metricReader: exporter,
  });
  sdk.start();
  const instrumentation = instrumentConnectorSdk();
  const server = createServer((request, response) => {
    if (request.url?.startsWith('/metrics'))
      exporter.getMetricsRequestHandler(request, response);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return {
    metricsUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`,
    async close() {
      instrumentation.disable();
      await new Promise((resolve) => server.close(resolve));
      await sdk.shutdown();
    },
  };
}

/** Prints where to look while telemetry runs. */
export function printWhereToLook(telemetry: Telemetry): void {
  const traces =
    process.env.OTEL_TRACES_EXPORTER === 'console'
      ? 'printed here as they end (OTEL_TRACES_EXPORTER=console)'
      : `sent by OTLP to ${process.env.OTEL_EXPORTER_OTLP_ENDPOINT ?? 'http://localhost:4318'} (OTEL_EXPORTER_OTLP_ENDPOINT; OTEL_TRACES_EXPORTER=console prints them)`;
  console.log(`
OpenTelemetry is on (CONNECTOR_OTEL=1).
  Metrics: curl -s ${telemetry.metricsUrl} | grep -E '^(http_server|http_client|connector)_'
           (http_server_request_duration in seconds by connector_operation and http_route, and more)
  Traces:  ${traces}
  Log lines carry trace_id and span_id.`);
}
