import { describe, expect, it } from 'vitest';
import {
  criticalPath,
  LOOP_LAG_MS,
  MODEL_LATENCY_MS,
  OWN_WORK_MS,
  pathSlack,
  releasePath,
  replyPath,
  TimeLedger,
  waitSlack,
} from '../src/cluster/index.js';

/** A ledger on a clock the test sets by hand, and helpers that record at given times. */
function script() {
  const clock = { now: 0 };
  const ledger = new TimeLedger(() => clock.now);
  const call = async (kind: 'store' | 'presence', server: string, from: number, to: number) => {
    clock.now = from;
    await ledger.timed(kind, server, `${kind} call`, async () => {
      clock.now = to;
    });
  };
  const flight = (publisher: string, receiver: string, from: number, to: number) => {
    clock.now = from;
    const body = { T: 'Q', at: from };
    ledger.published(`CKHandoff_${receiver}`, body, publisher);
    clock.now = to;
    ledger.delivered(receiver, `CKHandoff_${receiver}`, body);
  };
  const timer = (server: string, armedAt: number, delay: number, firedAt: number) => {
    clock.now = firedAt;
    ledger.fired(server, armedAt, armedAt + delay, `timer of ${delay} ms`);
  };
  return { clock, ledger, call, flight, timer };
}

describe('criticalPath', () => {
  it("follows a hand-over through the holder's release, and nothing else of any server", async () => {
    const { ledger, call, flight } = script();
    const c = call('store', 'C', 0, 900); // another server's long call, beside the whole wait
    await call('store', 'B', 0, 30); // B's first load
    flight('B', 'A', 31, 40); // the request
    await call('store', 'A', 41, 71); // A's release save
    flight('A', 'B', 72, 80); // the reply
    await call('store', 'B', 81, 111); // B's load
    await c;
    const path = criticalPath(ledger, { from: 0, to: 111, server: 'B' });
    expect(path.steps.map((step) => `${step.entry.server}:${step.entry.kind}`)).toEqual([
      'B:store',
      'A:message',
      'A:store',
      'B:message',
      'B:store',
    ]);
    expect(path.ownWork.map((span) => span.to - span.from)).toEqual([1, 1, 1, 1]);
    const slack = pathSlack(path, 0.1);
    expect(slack.unscaledMs).toBe(107);
    // Three store calls and two flights at the model's latencies, scaled.
    expect(slack.modelMs).toBeCloseTo(
      0.1 * (3 * MODEL_LATENCY_MS.store + 2 * MODEL_LATENCY_MS.message),
    );
    expect(slack.slackMs).toBe(Math.ceil(107 - 34 + 4));
  });

  it("leaves out the waiting server's own attempts while it sat on a request repeat", async () => {
    const { ledger, call, flight, timer } = script();
    await call('store', 'B', 0, 200); // B's first load; its request is lost
    // B's attempts go on meanwhile: park, presence, load, every 250 ms.
    for (let at = 250; at < 600; at += 250) {
      timer('B', at - 50, 50, at);
      await call('presence', 'B', at, at + 10);
      await call('store', 'B', at + 10, at + 210);
    }
    timer('B', 200, 400, 600); // the request repeat, on its own timer
    flight('B', 'A', 600, 605);
    await call('store', 'A', 605, 805);
    flight('A', 'B', 806, 810);
    await call('store', 'B', 810, 1_010);
    const path = criticalPath(ledger, { from: 0, to: 1_010, server: 'B' });
    const slack = pathSlack(path, 0.1);
    expect(slack.timerDelaysMs).toEqual([400]);
    // Three 200 ms calls and two flights: the attempts beside the repeat are off the path.
    expect(slack.unscaledMs).toBe(609);
    // The 400 ms repeat is no slack: 1010 ms against 150 + slack fails.
    expect(1_010).toBeGreaterThan(150 + slack.slackMs);
  });

  it('gives a deadline wait slack only for what came after the deadline', async () => {
    const { ledger, call, timer } = script();
    await call('store', 'B', 0, 40);
    timer('B', 40, 50, 90);
    await call('store', 'B', 90, 130);
    timer('B', 130, 20, 151); // cut to the 150 ms deadline, 1 ms late
    await call('store', 'B', 151, 191);
    const path = criticalPath(ledger, { from: 0, to: 191, server: 'B' });
    const slack = pathSlack(path, 0.1, { from: 0, to: 150 });
    expect(slack.unscaledMs).toBe(41); // the last timer's lateness and the last load
    expect(slack.slackMs).toBe(Math.ceil(41 - 0.1 * MODEL_LATENCY_MS.store));
  });

  it('takes no model time off for a step that began inside the fixed span', async () => {
    const { ledger, call, timer } = script();
    // A beat between two presence reads (fixed, 0 to 300): the load after the first read
    // ran past it, then the second read. The bound (300 + a read) never counted that load.
    await call('store', 'B', 0, 250);
    timer('B', 250, 0, 250);
    await call('store', 'B', 250, 330);
    await call('presence', 'B', 330, 340);
    const path = criticalPath(ledger, { from: 0, to: 340, server: 'B' });
    const slack = pathSlack(path, 0.1, { from: 0, to: 300 });
    expect(slack.unscaledMs).toBe(40); // the load's 30 ms past the beat and the read's 10
    // Only the read's model time is taken back, none of the load's (not 30/80 of it).
    expect(slack.modelMs).toBeCloseTo(0.1 * MODEL_LATENCY_MS.presence);
    expect(slack.slackMs).toBe(Math.ceil(40 - 0.1 * MODEL_LATENCY_MS.presence));
  });

  it("takes no model time off for an instant call in the wait's last millisecond", async () => {
    const { ledger, call, timer } = script();
    // The read that proves a crash (301) ends the wait at its event (302); the load after it
    // logs an instant call in that same millisecond, which the bound (a beat and one read)
    // never counted.
    timer('B', 0, 300, 301);
    await call('presence', 'B', 301, 301);
    await call('store', 'B', 302, 302);
    const path = criticalPath(ledger, { from: 0, to: 302, server: 'B' });
    expect(path.steps.map((step) => step.entry.kind)).toEqual(['timer', 'presence', 'store']);
    const slack = pathSlack(path, 0.1, { from: 0, to: 300 });
    expect(slack.unscaledMs).toBe(1); // the timer's lateness
    expect(slack.modelMs).toBeCloseTo(0.1 * MODEL_LATENCY_MS.presence);
    expect(slack.slackMs).toBe(Math.ceil(1 - 0.1 * MODEL_LATENCY_MS.presence + 1));
  });

  it("never takes a request repeat that fired just after a call began, in its millisecond, for that call's cause", async () => {
    const { clock, ledger } = script();
    clock.now = 813;
    const repeatArmed = ledger.mark(); // B's 4 s request repeat
    clock.now = 1_012;
    const parkArmed = ledger.mark(); // B's park
    clock.now = 1_212;
    ledger.fired('B', 1_012, 1_212, 'timer of 200 ms', parkArmed);
    await ledger.timed('presence', 'B', 'get A', async () => undefined);
    clock.now = 1_213;
    await ledger.timed('store', 'B', 'update p1', async () => {
      // The repeat fires while the attempt's update is under way, in the same millisecond.
      ledger.fired('B', 813, 1_213, 'repeat of 400 ms', repeatArmed);
    });
    await ledger.timed('store', 'B', 'update p1', async () => {
      clock.now = 1_214;
    });
    const path = criticalPath(ledger, { from: 1_000, to: 1_214, server: 'B' });
    // By the clock alone the repeat (ended at 1213) beat the read (1212) as the update's cause,
    // and the path jumped back past the park to when the repeat was armed.
    expect(path.steps.map((step) => step.entry.what)).toEqual([
      'timer of 200 ms',
      'get A',
      'update p1',
      'update p1',
    ]);
  });

  it('counts own work between steps up to a fraction of the shortest timer, scaled', async () => {
    const { ledger, call } = script();
    await call('store', 'B', 0, 10);
    await call('store', 'B', 60, 70); // 50 ms on nothing recorded
    const slack = pathSlack(criticalPath(ledger, { from: 0, to: 70, server: 'B' }), 0.1);
    expect(slack.ownWorkMs).toBe(OWN_WORK_MS * 0.1);
    expect(OWN_WORK_MS * 0.1 * 2).toBeLessThan(500 * 0.1); // below half a first park
  });

  it('fails an adoption that parked once first (0.5 s at 0.1) against its 0.5 s bound', async () => {
    const { ledger, call, timer } = script();
    timer('B', 0, 50, 50); // a park too many
    await call('store', 'B', 50, 53); // the adoption save
    const slack = pathSlack(criticalPath(ledger, { from: 0, to: 53, server: 'B' }), 0.1);
    expect(slack.timerDelaysMs).toEqual([50]);
    expect(53).toBeGreaterThan(500 * 0.1 + slack.slackMs);
  });

  it('ends a path on an instant call at the very end of the wait', async () => {
    const { ledger, call, timer } = script();
    timer('B', 0, 200, 203);
    await call('presence', 'B', 230, 230); // an in-memory read: no time at all
    const path = criticalPath(ledger, { from: 100, to: 230, server: 'B' });
    expect(path.steps.map((step) => step.entry.kind)).toEqual(['timer', 'presence']);
    expect(path.ownWork).toEqual([{ from: 203, to: 230 }]);
    expect(pathSlack(path, 0.1).ownWorkMs).toBe(OWN_WORK_MS * 0.1); // 27, capped
  });
});

describe('pathSlack with measured event-loop lag', () => {
  it('counts the lag in a gap of the path in full, past the own-work cap', async () => {
    const { ledger, call } = script();
    // The load started at 0; its first store call only at 69: the loop was stalled 3 to 68.
    await call('store', 'B', 69, 79);
    const path = criticalPath(ledger, { from: 0, to: 79, server: 'B' });
    const slack = pathSlack(path, 0.1, undefined, [{ from: 3, to: 68 }]);
    expect(slack.loopLagMs).toBe(65);
    expect(slack.ownWorkMs).toBe(4); // the gap's 4 ms that no lag covered
    expect(slack.slackMs).toBe(Math.ceil(10 - 0.1 * MODEL_LATENCY_MS.store + 4 + 65));
    // Without the lag the same wait gets own work capped at 20 ms.
    expect(pathSlack(path, 0.1).slackMs).toBe(Math.ceil(10 - 10 + OWN_WORK_MS * 0.1));
  });

  it("never counts lag during a timer's scheduled delay, a call, or the fixed span", async () => {
    const { ledger, call, timer } = script();
    await call('store', 'B', 0, 10);
    timer('B', 10, 50, 60); // a park: its delay is scaled, never slack
    await call('store', 'B', 60, 100);
    const path = criticalPath(ledger, { from: 0, to: 130, server: 'B' });
    const lag = [
      { from: 20, to: 50 }, // inside the park
      { from: 70, to: 90 }, // inside a call (its real time counts already)
      { from: 105, to: 115 }, // in the gap after the call, but inside the fixed span
      { from: 120, to: 125 }, // in that gap, outside it: counted
    ];
    const slack = pathSlack(path, 0.1, { from: 100, to: 118 }, lag);
    expect(slack.loopLagMs).toBe(5);
  });

  it('is capped below one scaled beat, so a missed beat still fails', async () => {
    const { ledger, call } = script();
    await call('store', 'B', 500, 510); // 500 ms of stalled loop before it
    const path = criticalPath(ledger, { from: 0, to: 510, server: 'B' });
    const slack = pathSlack(path, 0.1, undefined, [{ from: 0, to: 500 }]);
    expect(slack.loopLagMs).toBe(LOOP_LAG_MS * 0.1);
    expect(slack.loopLagMs + OWN_WORK_MS * 0.1).toBeLessThan(3_000 * 0.1);
  });
});

describe("waitSlack: the holder's release chain to the reply as a second path", () => {
  /**
   * A ledger written in the order things happen, calls overlapping: `open` starts a call and
   * returns its end; `send` publishes and returns the delivery.
   */
  function timeline() {
    const { clock, ledger } = script();
    const open = (kind: 'store' | 'presence', server: string, from: number) => {
      clock.now = from;
      let settle = () => {};
      const done = ledger.timed(
        kind,
        server,
        `${kind} call`,
        () =>
          new Promise<void>((resolve) => {
            settle = resolve;
          }),
      );
      return async (to: number) => {
        clock.now = to;
        settle();
        await done;
      };
    };
    const call = async (kind: 'store' | 'presence', server: string, from: number, to: number) =>
      (await open(kind, server, from))(to);
    const send = (publisher: string, receiver: string, from: number, body: object) => {
      clock.now = from;
      ledger.published(`CKHandoff_${receiver}`, body, publisher);
      return (to: number) => {
        clock.now = to;
        ledger.delivered(receiver, `CKHandoff_${receiver}`, body);
      };
    };
    const timer = (server: string, armedAt: number, delay: number, firedAt = armedAt + delay) => {
      clock.now = firedAt;
      ledger.fired(server, armedAt, armedAt + delay, `timer of ${delay} ms`);
    };
    return { ledger, open, call, send, timer };
  }

  it("gives a slow holder chain's real time to a joiner whose path runs through its parks", async () => {
    const { ledger, open, call, send, timer } = timeline();
    await call('store', 'B', 0, 30); // B's first load: A holds the lock
    const request = send('B', 'A', 31, { T: 'Q' });
    // B parks 0.5, 1, 2 s (at 0.1), each wake a slow 70 ms presence read and a load attempt.
    timer('B', 31, 50);
    await call('presence', 'B', 81, 151);
    await call('store', 'B', 151, 181);
    request(241); // a 210 ms flight
    const save = open('store', 'A', 242); // A's release save: 397 ms
    timer('B', 181, 100);
    await call('presence', 'B', 281, 351);
    await call('store', 'B', 351, 381);
    timer('B', 381, 200);
    const read = open('presence', 'B', 581);
    await (await save)(639);
    send('A', 'B', 640, { T: 'R' })(648); // the reply lands during B's read
    await (await read)(651);
    await call('store', 'B', 652, 682); // B's load that takes the lock
    const wait = { from: 0, to: 682, server: 'B' };
    const bound = 1_500 * 0.1;

    // The old accounting: B's own path, through its three parks (scaled: no slack).
    const own = pathSlack(criticalPath(ledger, wait), 0.1);
    expect(own.timerDelaysMs).toEqual([50, 100, 200]);
    expect(682).toBeGreaterThan(bound + own.slackMs);

    // The holder's chain ends at the reply B acted on, then B's own steps after it landed.
    const path = replyPath(ledger, wait);
    expect(path?.steps.map((step) => `${step.entry.server}:${step.entry.kind}`)).toEqual([
      'B:store', // B's first load
      'A:message', // the request
      'A:store', // the release save
      'B:message', // the reply
      'B:presence', // the rest of the read it landed in
      'B:store', // the load
    ]);
    const slack = waitSlack(ledger, wait, 0.1);
    expect(slack.viaReply).toBe(true);
    expect(slack.timerDelaysMs).toEqual([]);
    // 30 + 210 + 397 + 8 + 3 + 30 ms, less three store calls, two flights and 3/70 of a read
    // at the model's latencies, plus 4 ms of gaps.
    expect(slack.unscaledMs).toBe(678);
    expect(slack.modelMs).toBeCloseTo(0.1 * (3 * 100 + 2 * 20 + (3 / 70) * 10));
    expect(slack.ownWorkMs).toBe(4);
    expect(slack.slackMs).toBe(Math.ceil(678 - slack.modelMs + 4));
    expect(682).toBeLessThanOrEqual(bound + slack.slackMs);
  });

  it("gives the holder chain's time to a joiner whose own retry was taking the lock when the reply landed", async () => {
    // A CI run on PostgreSQL: the request's NOTIFY took 185 ms and A's release save 209 ms, so
    // B parked 0.5 and 1 s (at 0.1), and its load after the second park was in flight when the
    // reply landed; that load ended the wait.
    const { ledger, open, call, send, timer } = timeline();
    await call('store', 'B', 1, 43);
    const request = send('B', 'A', 43, { T: 'Q' });
    timer('B', 43, 50, 206);
    await call('presence', 'B', 207, 278);
    request(228);
    const save = open('store', 'A', 230);
    await call('store', 'B', 279, 331);
    timer('B', 331, 100, 448);
    await (await save)(439);
    const reply = send('A', 'B', 440, { T: 'R' });
    const read = open('presence', 'B', 448);
    await (await read)(485);
    const load = open('store', 'B', 485);
    reply(493); // during B's load
    await (await load)(663);
    const wait = { from: 0, to: 664, server: 'B' };
    const bound = 1_500 * 0.1;

    const own = pathSlack(criticalPath(ledger, wait), 0.1);
    expect(own.timerDelaysMs).toEqual([50, 100]);
    expect(664).toBeGreaterThan(bound + own.slackMs);

    const path = replyPath(ledger, wait);
    expect(path?.steps.map((step) => `${step.entry.server}:${step.entry.kind}`)).toEqual([
      'B:store', // B's first load
      'A:message', // the request
      'A:store', // the release save
      'B:message', // the reply
      'B:store', // the rest of the load it landed in
    ]);
    const slack = waitSlack(ledger, wait, 0.1);
    expect(slack.viaReply).toBe(true);
    expect(slack.timerDelaysMs).toEqual([]);
    // 42 + 185 + 209 + 53 + 170 ms, less two store calls, 170/178 of a third and two flights
    // at the model's latencies, plus 7 ms of gaps.
    expect(slack.unscaledMs).toBe(659);
    expect(slack.modelMs).toBeCloseTo(0.1 * (2 * 100 + (170 / 178) * 100 + 2 * 20));
    expect(664).toBeLessThanOrEqual(bound + slack.slackMs);
  });

  it("takes no reply that landed in the wait's last millisecond, after the event that ended it, for a cause", async () => {
    // A CI run on DynamoDB: B's load after the first reply took 287 ms; a second reply (to
    // the request repeat that fired meanwhile) landed in the millisecond the load ended, just
    // after it. Walked from it, the path ran through the 4 s repeat and failed the bound.
    const { ledger, open, call, send, timer } = timeline();
    await call('store', 'B', 1, 113);
    const request = send('B', 'A', 113, { T: 'Q' });
    timer('B', 113, 50, 220);
    await call('presence', 'B', 221, 223);
    request(186);
    const release = open('store', 'A', 186);
    const attempt = open('store', 'B', 223);
    await (await release)(300);
    await (await attempt)(316);
    send('A', 'B', 301, { T: 'R' })(361);
    const load = open('store', 'B', 362);
    timer('B', 113, 400, 531); // the request repeat
    const again = send('B', 'A', 532, { T: 'Q' });
    again(539);
    await call('store', 'A', 540, 558);
    const second = send('A', 'B', 558, { T: 'R' });
    await (await load)(650);
    const endOrder = ledger.mark(); // load.loaded
    second(650);
    const wait = { from: 0, to: 650, server: 'B', endOrder };
    const path = criticalPath(ledger, wait);
    expect(path.steps.at(-1)?.entry.kind).toBe('store');
    const slack = waitSlack(ledger, wait, 0.1);
    expect(slack.timerDelaysMs).toEqual([]);
    expect(650).toBeLessThanOrEqual(150 + slack.slackMs);
    // Without the end's order, the second reply is taken for the last step.
    const unordered = waitSlack(ledger, { from: 0, to: 650, server: 'B' }, 0.1);
    expect(unordered.timerDelaysMs).toEqual([400]);
    expect(650).toBeGreaterThan(150 + unordered.slackMs);
  });

  it("gives the holder's chain to the write that freed the record to a joiner whose own retry took it before the reply", async () => {
    // A CI run on Redis Cluster: the request took 270 ms to reach A, B parked twice on its
    // own, and its attempt after A's release took the lock; the reply landed after the wait.
    const { ledger, open, call, send, timer } = timeline();
    await call('store', 'B', 0, 23);
    const request = send('B', 'A', 23, { T: 'Q' });
    timer('B', 29, 50, 169);
    await call('presence', 'B', 169, 179);
    await call('store', 'B', 180, 193);
    timer('B', 193, 100, 330);
    request(299);
    const release = open('store', 'A', 299);
    const read = open('presence', 'B', 330);
    await (await release)(333);
    const reply = send('A', 'B', 334, { T: 'R' });
    await (await read)(351);
    await call('store', 'B', 351, 501); // takes the freed lock
    const endOrder = ledger.mark();
    reply(661);
    const wait = { from: 0, to: 501, server: 'B', endOrder };
    const bound = 1_500 * 0.1;

    const own = pathSlack(criticalPath(ledger, wait), 0.1);
    expect(own.timerDelaysMs).toEqual([50, 100]);
    expect(501).toBeGreaterThan(bound + own.slackMs);
    expect(replyPath(ledger, wait)).toBeUndefined();

    const path = releasePath(ledger, wait);
    expect(path?.steps.map((step) => `${step.entry.server}:${step.entry.kind}`)).toEqual([
      'B:store', // B's first load
      'A:message', // the request
      'A:store', // the release
      'B:presence', // the rest of the read it ended in
      'B:store', // the load that took the lock
    ]);
    const slack = waitSlack(ledger, wait, 0.1);
    expect(slack.viaRelease).toBe(true);
    expect(slack.timerDelaysMs).toEqual([]);
    expect(501).toBeLessThanOrEqual(bound + slack.slackMs);
  });

  it("takes no holder's write that the request did not set off (an autosave) for the one that freed the record", async () => {
    const { ledger, call, send, timer } = timeline();
    await call('store', 'B', 0, 23);
    send('B', 'A', 23, { T: 'Q' }); // lost
    await call('store', 'A', 100, 400); // A's slow autosave, its own
    timer('B', 23, 500, 523);
    await call('store', 'B', 523, 553);
    const wait = { from: 0, to: 553, server: 'B' };
    expect(releasePath(ledger, wait)).toBeUndefined();
    expect(waitSlack(ledger, wait, 0.1).viaRelease).toBeUndefined();
  });

  it('takes no reply that landed after the last step for the one the wait acted on', async () => {
    const { ledger, call, send, timer } = timeline();
    await call('store', 'B', 0, 30);
    const request = send('B', 'A', 31, { T: 'Q' });
    timer('B', 31, 50);
    await call('presence', 'B', 81, 91);
    await call('store', 'B', 91, 121); // the lock was free: B took it on its own
    request(300);
    await call('store', 'A', 301, 400);
    send('A', 'B', 401, { T: 'R' })(410); // after B's wait ended
    const wait = { from: 0, to: 121, server: 'B' };
    expect(replyPath(ledger, wait)).toBeUndefined();
    expect(waitSlack(ledger, wait, 0.1).viaReply).toBe(false);
  });

  it('gives no slack for a request repeat on the holder chain: a hand-over that waited one fails', async () => {
    const { ledger, open, call, send, timer } = timeline();
    await call('store', 'B', 0, 30);
    send('B', 'A', 31, { T: 'Q' }); // lost: never delivered
    for (let at = 31; at < 400; at += 270) {
      timer('B', at, 200);
      await call('presence', 'B', at + 200, at + 270);
    }
    timer('B', 30, 400, 431); // the request repeat, 4 s at 0.1
    const request = send('B', 'A', 431, { T: 'Q' });
    timer('B', 571, 200);
    await call('presence', 'B', 771, 841);
    request(641);
    const save = open('store', 'A', 642);
    timer('B', 841, 200);
    const read = open('presence', 'B', 1_041);
    await (await save)(1_039);
    send('A', 'B', 1_040, { T: 'R' })(1_048);
    await (await read)(1_081);
    await call('store', 'B', 1_082, 1_112);
    const wait = { from: 0, to: 1_112, server: 'B' };
    const path = replyPath(ledger, wait);
    expect(path?.steps.map((step) => `${step.entry.server}:${step.entry.kind}`)).toEqual([
      'B:store',
      'B:timer', // the repeat: its 400 ms are scaled, no slack
      'A:message',
      'A:store',
      'B:message',
      'B:presence',
      'B:store',
    ]);
    const slack = waitSlack(ledger, wait, 0.1);
    expect(slack.viaReply).toBe(true);
    expect(slack.timerDelaysMs).toEqual([400]);
    expect(1_112).toBeGreaterThan(150 + slack.slackMs);
  });

  it('gives no slack for a timer after the reply landed: a park too many still fails', async () => {
    const { ledger, open, call, send, timer } = timeline();
    await call('store', 'B', 0, 30);
    const request = send('B', 'A', 31, { T: 'Q' });
    timer('B', 31, 50);
    const read = open('presence', 'B', 81);
    request(131);
    await call('store', 'A', 132, 232);
    send('A', 'B', 233, { T: 'R' })(240); // during B's read
    await (await read)(241);
    timer('B', 241, 300); // a beat's wait too many after it
    await call('store', 'B', 541, 571);
    const wait = { from: 0, to: 571, server: 'B' };
    const slack = waitSlack(ledger, wait, 0.1);
    expect(slack.viaReply).toBe(true);
    expect(slack.timerDelaysMs).toEqual([300]);
    expect(571).toBeGreaterThan(150 + slack.slackMs);
  });
});
