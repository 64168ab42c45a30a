/**
 * Two servers on real Redis, each with its own OpenTelemetry SDK: a live hand-over, a takeover
 * of a server that stopped beating presence (and its lost lock), and a failed save, as the
 * metrics and spans an ops team reads. No attribute holds profile data, a token or the key.
 */
import { mark, settled, withCluster } from '@datadriver/testkit/cluster';
import type { Histogram } from '@opentelemetry/sdk-metrics';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { ATTRIBUTES, instrumentDriver, instrumentHandoff, METRICS, SPANS } from '../src/index.js';
import { redisBackend } from './support/redis-backend.js';
import { type Telemetry, telemetry } from './support/telemetry.js';

const KEY = 'player-7f3a';
const SECRET = 'marker-c0ffee-in-profile-data';
const opened: Telemetry[] = [];

afterEach(async () => {
  for (const sdk of opened.splice(0)) await sdk.shutdown();
});

function sdk(): Telemetry {
  const opened_ = telemetry();
  opened.push(opened_);
  return opened_;
}

describe('a live hand-over between two servers', () => {
  it('B records its wait for A (loaded, unlocked, waited on locked), A the request, the kick and the release; the spans link', () =>
    withCluster(redisBackend(inject('redisUrl'), 0.1), async (cluster) => {
      const onA = sdk();
      const onB = sdk();
      const a = await cluster.server('A');
      const b = await cluster.server('B');
      instrumentDriver(a.driver, onA);
      instrumentDriver(b.driver, onB);
      const first = mark(cluster);
      a.join(KEY);
      await settled(cluster, 'A', KEY, first);
      const profile = a.profile(KEY)!;
      (profile.data as unknown as Record<string, unknown>).note = SECRET;
      await profile.save();
      const tokenA = profile.lockToken;
      const from = mark(cluster);
      b.join(KEY);
      const loaded = await settled(cluster, 'B', KEY, from);
      expect(loaded).toMatchObject({ type: 'load.loaded', reason: 'unlocked' });
      const tokenB = b.profile(KEY)!.lockToken;

      // B: one load that waited on A's lock and loaded once A released it.
      const [wait] = await onB.points<Histogram>(METRICS.loadDuration);
      expect(wait!.attributes).toEqual({
        [ATTRIBUTES.driver]: cluster.driverName,
        [ATTRIBUTES.outcome]: 'loaded',
        [ATTRIBUTES.loadReason]: 'unlocked',
        [ATTRIBUTES.waitedOn]: 'locked',
        [ATTRIBUTES.session]: true,
      });
      expect(wait!.value.count).toBe(1);
      expect(wait!.value.sum).toBeCloseTo(loaded.waitedMs / 1000, 3);
      expect(await onB.count(METRICS.requestsSent)).toBeGreaterThanOrEqual(1);
      expect(await onB.count(METRICS.activeProfiles)).toBe(1);

      // A: its own first load, then the request it acted on, the kick, the release.
      const [own] = await onA.points<Histogram>(METRICS.loadDuration);
      expect(own!.attributes).toMatchObject({
        [ATTRIBUTES.loadReason]: 'new',
        [ATTRIBUTES.waitedOn]: 'none',
      });
      expect(await onA.count(METRICS.requestsReceived, { [ATTRIBUTES.action]: 'kick' })).toBe(1);
      expect(await onA.count(METRICS.kicks, { [ATTRIBUTES.kickReason]: 'joined_elsewhere' })).toBe(
        1,
      );
      const [release] = await onA.points<Histogram>(METRICS.releaseDuration);
      expect(release!.value.count).toBe(1);
      expect(release!.value.sum).toBeLessThan(loaded.waitedMs / 1000);
      expect(await onA.count(METRICS.activeProfiles)).toBe(0);

      // B's load span carries its waits as events and links to A's handling of its request.
      const [loadSpan] = onB.spans(SPANS.load);
      expect(loadSpan!.events.map((event) => event.name)).toEqual(
        expect.arrayContaining([
          'datadriver.load.waiting',
          'datadriver.handoff.request.sent',
          'datadriver.handoff.reply.received',
        ]),
      );
      const link = loadSpan!.links[0]!.context;
      const [releaseSpan] = onA.spans(SPANS.release);
      expect(releaseSpan!.spanContext().traceId).toBe(link.traceId);
      expect(releaseSpan!.parentSpanContext?.spanId).toBe(link.spanId);
      expect(releaseSpan!.attributes[ATTRIBUTES.peerServer]).toBe(b.jobId);
      expect(releaseSpan!.events.map((event) => event.name)).toEqual([
        'datadriver.profile.kicked',
        'datadriver.profile.releasing',
        'datadriver.profile.released',
        'datadriver.handoff.reply.sent',
      ]);

      // Nothing secret anywhere: no token, no data, no key (includeKeys is off).
      const values = [...(await onA.everyValue()), ...(await onB.everyValue())];
      expect(values.length).toBeGreaterThan(50);
      for (const secret of [tokenA, tokenB, SECRET, KEY]) {
        expect(values.filter((value) => value.includes(secret))).toEqual([]);
      }
    }));
});

describe('a server that stops beating presence while it stays up', () => {
  it('B takes its lock (stolen, after stopped reads); A then loses it, and a failed save is counted by code', () =>
    withCluster(redisBackend(inject('redisUrl'), 0.1), async (cluster) => {
      const onA = sdk();
      const onB = sdk();
      const a = await cluster.server('A');
      const b = await cluster.server('B', { lockWaitSeconds: 30 });
      instrumentDriver(a.driver, onA);
      instrumentDriver(b.driver, onB);
      instrumentHandoff(a.handoff!, onA);
      const first = mark(cluster);
      a.join(KEY);
      await settled(cluster, 'A', KEY, first);
      await a.handoff!.beat();
      // A's beats fail and its bus is gone; its store still works.
      a.presence.faults.inject({ kind: 'fail', operation: 'set', times: Number.POSITIVE_INFINITY });
      a.messenger.faults.inject({ kind: 'stall', times: Number.POSITIVE_INFINITY });
      const from = mark(cluster);
      b.join(KEY);
      const loaded = await settled(cluster, 'B', KEY, from);
      expect(loaded).toMatchObject({ type: 'load.loaded', reason: 'stolen' });
      expect(await onB.count(METRICS.takeovers, { [ATTRIBUTES.takeoverReason]: 'stolen' })).toBe(1);
      expect(
        await onB.count(METRICS.presenceReads, { [ATTRIBUTES.presenceAnswer]: 'stopped' }),
      ).toBeGreaterThanOrEqual(2);
      const [stolen] = await onB.points<Histogram>(METRICS.loadDuration);
      expect(stolen!.attributes).toMatchObject({
        [ATTRIBUTES.loadReason]: 'stolen',
        [ATTRIBUTES.waitedOn]: 'locked',
      });
      const [span] = onB.spans(SPANS.load);
      expect(
        span!.events.filter((event) => event.name === 'datadriver.lock.taken')[0]!.attributes,
      ).toEqual({
        [ATTRIBUTES.takeoverReason]: 'stolen',
        [ATTRIBUTES.peerServer]: a.jobId,
      });
      expect(
        await onA.count(METRICS.beats, {
          [ATTRIBUTES.outcome]: 'failed',
          [ATTRIBUTES.errorType]: 'Data.BackendFailed',
        }),
      ).toBeGreaterThanOrEqual(1);

      // A's next save finds B's lock: lost, and its player kicked for it.
      await expect(a.profile(KEY)!.save()).rejects.toMatchObject({ code: 'Data.LockLost' });
      await cluster.until(async () => (await onA.count(METRICS.kicks)) > 0, 2_000, "A's kick");
      expect(await onA.count(METRICS.lockLosses)).toBe(1);
      expect(await onA.count(METRICS.kicks, { [ATTRIBUTES.kickReason]: 'lock_lost' })).toBe(1);

      // B's store refuses one write: a failed save, by its code and reason.
      b.store.faults.inject({ kind: 'fail', operation: 'update' });
      await expect(b.profile(KEY)!.save()).rejects.toMatchObject({ code: 'Data.BackendFailed' });
      expect(
        await onB.count(METRICS.saveFailures, {
          [ATTRIBUTES.errorType]: 'Data.BackendFailed',
          [ATTRIBUTES.saveReason]: 'manual',
        }),
      ).toBe(1);
    }));
});

describe('a join that fails closed', () => {
  it('records the failed wait by code and the kick; the error span names the code, not the token; keys only on spans when asked', () =>
    withCluster(redisBackend(inject('redisUrl'), 0.1), async (cluster) => {
      const onB = sdk();
      // An older build: no presence flag, no answer to requests.
      const a = await cluster.server('A', { handoff: false });
      const b = await cluster.server('B', { lockWaitSeconds: 2 });
      instrumentDriver(b.driver, { ...onB, includeKeys: true });
      const first = mark(cluster);
      a.join(KEY);
      await settled(cluster, 'A', KEY, first);
      const tokenA = a.profile(KEY)!.lockToken;
      const from = mark(cluster);
      b.join(KEY);
      const failed = await settled(cluster, 'B', KEY, from);
      expect(failed).toMatchObject({ type: 'load.failed', error: { code: 'Data.Locked' } });
      // The error's own message names A's token: it must not reach the telemetry.
      expect(failed.type === 'load.failed' && failed.error.message).toContain(tokenA);
      const [wait] = await onB.points<Histogram>(METRICS.loadDuration);
      expect(wait!.attributes).toEqual({
        [ATTRIBUTES.driver]: cluster.driverName,
        [ATTRIBUTES.outcome]: 'failed',
        [ATTRIBUTES.errorType]: 'Data.Locked',
        [ATTRIBUTES.waitedOn]: 'locked',
        [ATTRIBUTES.session]: true,
      });
      await cluster.until(async () => (await onB.count(METRICS.kicks)) > 0, 2_000, "B's kick");
      expect(await onB.count(METRICS.kicks, { [ATTRIBUTES.kickReason]: 'locked' })).toBe(1);
      const [span] = onB.spans(SPANS.load);
      expect(span!.status).toEqual({ code: 2, message: 'Data.Locked' });
      expect(span!.attributes[ATTRIBUTES.key]).toBe(KEY);
      const values = await onB.everyValue();
      expect(values.filter((value) => value.includes(tokenA))).toEqual([]);
      for (const point of await onB.points(METRICS.kicks)) {
        expect(point.attributes[ATTRIBUTES.key]).toBeUndefined();
      }
    }));
});
