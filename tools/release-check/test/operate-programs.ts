/**
 * The programs of the operating packages' tarball checks, as a user would write them after
 * `npm install`: one leaves a profile locked on Redis for the `datadriver` bin to inspect, the
 * other instruments a driver with @datadriver/opentelemetry and reads its metrics back.
 */
export const LOCKED_PROFILE_PROGRAM = `
import { DataDriver } from '@datadriver/core';
import { RECOMMENDED_REDIS_OPTIONS, RedisStore } from '@datadriver/redis';
import { Redis } from 'ioredis';

const client = new Redis(process.env.REDIS_URL ?? '', RECOMMENDED_REDIS_OPTIONS);
const store = new RedisStore({ client, prefix: process.env.PREFIX, versions: { keep: 5 } });
const driver = new DataDriver<{ coins: number }>({ name: 'PlayerData', defaults: { coins: 0 }, store, jobId: 'packed-server' });
const profile = await driver.load('user-1');
profile.data.coins = 25;
profile.addUserId('steam:1');
await profile.save();
// Left locked, as a server that crashed leaves it.
client.disconnect();
`;

export const TELEMETRY_PROGRAM = `
import { DataDriver } from '@datadriver/core';
import { MemoryStore } from '@datadriver/core/testing';
import { instrumentDriver, METRICS } from '@datadriver/opentelemetry';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';

const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
const meterProvider = new MeterProvider({ readers: [reader] });
const driver = new DataDriver({ name: 'PlayerData', defaults: { coins: 0 }, store: new MemoryStore() });
const stop = instrumentDriver(driver, { meterProvider });
const profile = await driver.load('user-1');
await profile.release();
await reader.forceFlush();
const metrics = exporter.getMetrics().flatMap((r) => r.scopeMetrics.flatMap((s) => s.metrics));
const load = metrics.find((m) => m.descriptor.name === METRICS.loadDuration);
stop();
console.log(JSON.stringify({ points: load?.dataPoints.length, attributes: load?.dataPoints[0]?.attributes }));
`;
