// A probe, not a server of the full run (PROBES in servers.mjs): the naive server whose later call also records,
// by hand, what @connector-sdk/opentelemetry records for it: one server span with the same name, kind, times and
// attributes, and one point of the `http.server.request.duration` histogram with the same attributes, through the
// OpenTelemetry SDK set up as sdk-node-otel sets it up (otel-sdk.mjs). Against the naive server (`pnpm bench:pair
// --server probe-naive-otel --against naive --scenarios later-call`) the ratio is what the OpenTelemetry SDK's
// own work costs a call that small, with no SDK of ours and no diagnostics channel around it: the part of
// sdk-node-otel's cost that no instrumentation recording the same span and metric can avoid
// (bench/notes/opentelemetry-per-call-cost.md).
import { ROOT_CONTEXT, SpanKind } from '@opentelemetry/api';
import { connector } from '../connector.mjs';
import * as handWritten from '../hand-written.mjs';
import { getIssue } from '../naive.mjs';
import { discardingTelemetry } from '../otel-sdk.mjs';
import { BASE, SYSTEM_ID } from '../scenarios.mjs';
import { start as startFloor } from './floor.mjs';

/** The later call's route as core publishes it: the base, the API version and the connector's pattern. */
const ROUTE = `${BASE}/issues/:id`;

/** @param {{ port: number }} options */
export async function start(options) {
  const { tracerProvider, meterProvider, shutdown } = discardingTelemetry();
  const tracer = tracerProvider.getTracer('probe-naive-otel');
  const duration = meterProvider
    .getMeter('probe-naive-otel')
    .createHistogram('http.server.request.duration', {
      unit: 's',
      // The semantic conventions' boundaries, as the instrumentation hands them (its DURATION_BUCKETS).
      advice: {
        explicitBucketBoundaries: [
          0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10,
        ],
      },
    });

  /** The naive later call, then its span and its duration recorded as the instrumentation records them. */
  function getIssueRecorded(headers, id, fields) {
    const started = performance.now();
    const answer = getIssue(headers, id, fields);
    const ended = performance.now();
    const span = tracer.startSpan(
      `GET ${ROUTE}`,
      {
        kind: SpanKind.SERVER,
        startTime: started,
        attributes: {
          'connector.name': connector.name,
          'connector.version': connector.version,
          'http.request.method': 'GET',
        },
      },
      ROOT_CONTEXT,
    );
    span.setAttribute('http.route', ROUTE);
    span.setAttribute('connector.operation', 'getIssue');
    span.setAttribute('http.response.status_code', answer.status);
    span.setAttribute('connector.system_id', SYSTEM_ID);
    span.end(ended);
    duration.record((ended - started) / 1000, {
      'http.request.method': 'GET',
      'connector.name': connector.name,
      'http.route': ROUTE,
      'connector.operation': 'getIssue',
      'http.response.status_code': answer.status,
    });
    return answer;
  }

  const running = await startFloor(options, { ...handWritten, getIssue: getIssueRecorded });
  return {
    port: running.port,
    close: async () => {
      await running.close();
      await shutdown();
    },
  };
}
