/**
 * Issue 28, operate: the `message.*` events, exactly which and how many times, on the virtual
 * clock. An event is reported once per fact (a lost response retried is one `message.applied`),
 * and the warnings go through the event stream's logger lines (once per message and server).
 */
import { describe, expect, it } from 'vitest';
import { type DataDriverEvent, ErrorCode } from '../../src/index.js';
import { messagesBed, pendingIds } from './bed.js';

const INBOX = 'PlayerData#inbox/p1';
const PROFILE = 'PlayerData/p1';

/** The message events as `[server, type, what]`, in order. */
function messageEvents(events: readonly DataDriverEvent[]): Array<[string, string, string]> {
  const out: Array<[string, string, string]> = [];
  for (const event of events) {
    switch (event.type) {
      case 'message.sent':
      case 'message.delivered':
        out.push([event.jobId, event.type, `${event.id} ${event.outcome}`]);
        break;
      case 'message.applied':
        out.push([event.jobId, event.type, event.ids.join(',')]);
        break;
      case 'message.duplicate':
        out.push([event.jobId, event.type, event.id]);
        break;
      case 'message.failed':
        out.push([event.jobId, event.type, `${event.id} ${event.error.code} first=${event.first}`]);
        break;
      case 'message.inbox-failed':
        out.push([event.jobId, event.type, `${event.step} ${event.error.code}`]);
        break;
      case 'message.delivery-failed':
        out.push([event.jobId, event.type, `${event.id} to ${event.to} ${event.error.code}`]);
        break;
      default:
        break;
    }
  }
  return out;
}

describe('message events', () => {
  it('a send says queued, then duplicate; the holder applies it once, after its write committed', async () => {
    const m = messagesBed();
    const w = m.bed.server('W');
    const send = () => m.bed.clock.run(w.driver.send('p1', { coins: 5 }, { id: 'g1' }));
    await send();
    await send();
    const a = m.server('A');
    await m.bed.clock.run(a.driver.load('p1'));
    await m.bed.clock.advance(90_000); // three autosaves: nothing more to report
    expect(messageEvents(m.bed.events)).toEqual([
      ['W', 'message.sent', 'g1 queued'],
      ['W', 'message.sent', 'g1 duplicate'],
      ['A', 'message.applied', 'g1'],
    ]);
    const applied = m.bed.events.find((event) => event.type === 'message.applied');
    expect(applied).toMatchObject({ driver: 'PlayerData', key: 'p1', jobId: 'A' });
    // The applied event comes with the save of the pass that applied it.
    const types = m.bed.events.filter((e) => e.jobId === 'A').map((e) => e.type);
    expect(types.indexOf('message.applied')).toBe(types.indexOf('profile.saved') - 1);
  });

  it("a lost response on the apply's compare-and-set: one message.applied, at the write known committed", async () => {
    const m = messagesBed();
    const w = m.bed.server('W');
    const a = m.server('A');
    await m.bed.clock.run(a.driver.load('p1'));
    await m.bed.clock.run(w.driver.send('p1', { coins: 3 }, { id: 'g1' }));
    await m.bed.clock.run(w.driver.send('p1', { coins: 4 }, { id: 'g2' }));
    a.store.faults.inject({ kind: 'lose-response', operation: 'update', key: PROFILE });
    await m.bed.clock.advance(30_000); // the autosave's pass applies both; its response is lost
    expect(m.ids()).toEqual(['g1', 'g2']);
    expect(messageEvents(m.bed.events).filter(([, type]) => type !== 'message.sent')).toEqual([]);
    await m.bed.clock.advance(30_000); // the next write carries them and is known committed
    await m.bed.clock.advance(60_000);
    expect(messageEvents(m.bed.events).filter(([, type]) => type !== 'message.sent')).toEqual([
      ['A', 'message.applied', 'g1,g2'],
    ]);
    expect(pendingIds(m.bed.store, 'p1')).toEqual([]);
  });

  it('a holder that stopped between the apply and the trim: the next holder reports a duplicate, once, and no apply', async () => {
    const m = messagesBed();
    const w = m.bed.server('W');
    await m.bed.clock.run(w.driver.send('p1', { coins: 9 }, { id: 'g1' }));
    const a = m.server('A');
    a.store.faults.inject({ kind: 'fail', operation: 'update', key: INBOX });
    await m.bed.clock.run(a.driver.load('p1'));
    a.store.faults.inject({ kind: 'fail', times: Number.POSITIVE_INFINITY }); // A is cut off
    const b = m.server('B', { lockWaitSeconds: 600 });
    b.store.faults.inject({ kind: 'fail', operation: 'update', key: INBOX }); // B's trim too
    await m.bed.clock.run(b.driver.load('p1'));
    expect(pendingIds(m.bed.store, 'p1')).toEqual(['g1']);
    await m.bed.clock.advance(60_000); // B's autosaves trim it
    expect(pendingIds(m.bed.store, 'p1')).toEqual([]);
    // A, cut off, keeps failing its autosaves' reads of the inbox: not what this test counts.
    const cutOff = ['A', 'message.inbox-failed', `read ${ErrorCode.BackendFailed}`].join();
    expect(messageEvents(m.bed.events).filter((event) => event.join() !== cutOff)).toEqual([
      ['W', 'message.sent', 'g1 queued'],
      ['A', 'message.applied', 'g1'],
      ['A', 'message.inbox-failed', `trim ${ErrorCode.BackendFailed}`],
      ['B', 'message.duplicate', 'g1'],
      ['B', 'message.inbox-failed', `trim ${ErrorCode.BackendFailed}`],
    ]);
    expect(m.applied.map(({ server, id }) => [server, id])).toEqual([['A', 'g1']]);
  });

  it('a handler that throws: message.failed at every try, warned once through the event stream', async () => {
    const m = messagesBed();
    const w = m.bed.server('W');
    await m.bed.clock.run(w.driver.send('p1', { throws: true }, { id: 'bad' }));
    const a = m.server('A');
    await m.bed.clock.run(a.driver.load('p1'));
    await m.bed.clock.advance(90_000); // the load's pass and three autosaves
    const failed = messageEvents(m.bed.events).filter(([, type]) => type === 'message.failed');
    expect(failed).toEqual([
      ['A', 'message.failed', `bad ${ErrorCode.MessageFailed} first=true`],
      ['A', 'message.failed', `bad ${ErrorCode.MessageFailed} first=false`],
      ['A', 'message.failed', `bad ${ErrorCode.MessageFailed} first=false`],
      ['A', 'message.failed', `bad ${ErrorCode.MessageFailed} first=false`],
    ]);
    const warned = m.bed.log.warnings().filter((line) => line.includes(ErrorCode.MessageFailed));
    expect(warned).toEqual([
      `${ErrorCode.MessageFailed}: message "bad" to p1 did not apply: onMessage threw; it stays pending`,
    ]);
    // The next server to hold the profile warns once of its own.
    await m.bed.clock.run(a.driver.close());
    const b = m.server('B');
    await m.bed.clock.run(b.driver.load('p1'));
    expect(
      m.bed.log.warnings().filter((line) => line.includes(ErrorCode.MessageFailed)),
    ).toHaveLength(2);
  });

  it('an inbox that cannot be read is reported and warned; the next pass applies', async () => {
    const m = messagesBed();
    const w = m.bed.server('W');
    await m.bed.clock.run(w.driver.send('p1', { coins: 1 }, { id: 'g1' }));
    const a = m.server('A');
    a.store.faults.inject({ kind: 'fail', operation: 'get', key: INBOX });
    await m.bed.clock.run(a.driver.load('p1'));
    expect(m.bed.log.warnings()).toEqual([
      expect.stringMatching(/^the inbox of p1 could not be read: Data\.BackendFailed/),
    ]);
    await m.bed.clock.advance(30_000);
    expect(messageEvents(m.bed.events)).toEqual([
      ['W', 'message.sent', 'g1 queued'],
      ['A', 'message.inbox-failed', `read ${ErrorCode.BackendFailed}`],
      ['A', 'message.applied', 'g1'],
    ]);
  });
});

describe('transfer events', () => {
  it("a delivery's lost response: delivery-failed (warned), then delivered as duplicate; applied once by the recipient", async () => {
    const m = messagesBed();
    const a = m.server('A');
    const alice = await m.bed.clock.run(a.driver.load('alice'));
    alice.send('bob', { coins: 2 }, { id: 't1' });
    a.store.faults.inject({
      kind: 'lose-response',
      operation: 'update',
      key: 'PlayerData#inbox/bob',
    });
    await m.bed.clock.run(alice.save());
    await m.bed.clock.advance(0);
    await m.bed.clock.run(alice.save());
    await m.bed.clock.advance(0);
    await m.bed.clock.run(alice.save());
    await m.bed.clock.advance(0);
    await m.bed.clock.run(m.server('B').driver.load('bob'));
    expect(messageEvents(m.bed.events)).toEqual([
      ['A', 'message.delivery-failed', `t1 to bob ${ErrorCode.BackendFailed}`],
      ['A', 'message.delivered', 't1 duplicate'],
      ['B', 'message.applied', 't1'],
    ]);
    expect(m.bed.log.warnings()).toEqual([
      expect.stringMatching(/^the transfer "t1" from alice to bob was not delivered yet: /),
    ]);
  });

  it('a delivery the recipient cannot tell received: delivery-failed once (Data.DeliveryUncertain), never again', async () => {
    const m = messagesBed();
    // Bob's inbox has forgotten messages newer than any this clock makes.
    const forgotBelow = m.bed.clock.now() + 3_600_000;
    const forgotten = { inbox: 1, pending: [], done: [], forgotBelow };
    await m.bed.store.update('PlayerData#inbox/bob', () => forgotten);
    const a = m.server('A');
    const alice = await m.bed.clock.run(a.driver.load('alice'));
    alice.send('bob', { coins: 2 }, { id: 't1' });
    await m.bed.clock.run(alice.save());
    await m.bed.clock.advance(90_000);
    expect(messageEvents(m.bed.events)).toEqual([
      ['A', 'message.delivery-failed', `t1 to bob ${ErrorCode.DeliveryUncertain}`],
    ]);
    expect(m.bed.log.warnings()).toEqual([
      expect.stringMatching(/^Data\.DeliveryUncertain: the transfer "t1" from alice to bob/),
    ]);
  });
});
