// The observability guide's OpenTelemetry set-up: the Node SDK, then the connector SDK's instrumentation. Run it
// before the connector starts serving, for example as the first import of main.ts.
// #region setup
import { instrumentConnectorSdk } from '@connector-sdk/opentelemetry';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { NodeSDK } from '@opentelemetry/sdk-node';

// Traces go where the standard OTEL_* variables say (OTLP to localhost:4318 by
// default); Prometheus scrapes the metrics on port 9464.
const sdk = new NodeSDK({
  serviceName: 'acme-connector',
  metricReader: new PrometheusExporter(),
});
sdk.start();
// After start(): it reads the providers the Node SDK registered.
const instrumentation = instrumentConnectorSdk();

process.once('SIGTERM', () => {
  instrumentation.disable();
  void sdk.shutdown();
});
// #endregion setup
