/**
 * One server's OpenTelemetry SDK, as its process would set it up, with in-memory exporters:
 * the metric points and finished spans the tests assert on.
 */
import type { Attributes, AttributeValue } from '@opentelemetry/api';
import {
  AggregationTemporality,
  type DataPoint,
  type Histogram,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';

export interface Telemetry {
  readonly meterProvider: MeterProvider;
  readonly tracerProvider: BasicTracerProvider;
  /** The points of metric `name` now (cumulative). */
  points<T = number>(name: string): Promise<DataPoint<T>[]>;
  /** The sum of a counter's points whose attributes include `match`. */
  count(name: string, match?: Attributes): Promise<number>;
  spans(name?: string): ReadableSpan[];
  /** Every attribute value and status message recorded anywhere, to search for leaks. */
  everyValue(): Promise<string[]>;
  shutdown(): Promise<void>;
}

export function telemetry(): Telemetry {
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  const spanExporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(spanExporter)],
  });
  const collect = async () => {
    exporter.reset();
    await reader.forceFlush();
    return exporter.getMetrics().flatMap((r) => r.scopeMetrics.flatMap((s) => s.metrics));
  };
  const points = async <T>(name: string) =>
    (await collect())
      .filter((m) => m.descriptor.name === name)
      .flatMap((m) => m.dataPoints as DataPoint<T>[]);
  const matches = (attributes: Attributes, match: Attributes) =>
    Object.entries(match).every(([key, value]) => attributes[key] === value);
  return {
    meterProvider,
    tracerProvider,
    points,
    count: async (name, match = {}) =>
      (await points<number>(name))
        .filter((point) => matches(point.attributes, match))
        .reduce((sum, point) => sum + point.value, 0),
    spans: (name) =>
      spanExporter.getFinishedSpans().filter((span) => name === undefined || span.name === name),
    everyValue: async () => {
      const values: AttributeValue[] = [];
      const add = (attributes: Attributes = {}) => {
        for (const [key, value] of Object.entries(attributes)) {
          values.push(key);
          if (value !== undefined) values.push(value);
        }
      };
      for (const span of spanExporter.getFinishedSpans()) {
        values.push(span.name, span.status.message ?? '');
        add(span.attributes);
        for (const event of span.events) {
          values.push(event.name);
          add(event.attributes);
        }
        for (const link of span.links) add(link.attributes);
      }
      for (const metric of await collect()) {
        values.push(metric.descriptor.name, metric.descriptor.description);
        for (const point of metric.dataPoints) add(point.attributes);
      }
      return values.map((value) => String(value));
    },
    shutdown: async () => {
      await meterProvider.shutdown();
      await tracerProvider.shutdown();
    },
  };
}

export type { Histogram };
