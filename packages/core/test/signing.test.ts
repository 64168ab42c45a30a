import { describe, expect, it } from 'vitest';
import type { HandoffClient } from '../src/handoff/handoff.js';
import { DataDriver, ErrorCode, Handoff, type HandoffSigning } from '../src/index.js';
import { topicOf } from '../src/rules.js';
import {
  MemoryHost,
  MemoryMessenger,
  MemoryPresence,
  MemoryStore,
  VirtualClock,
} from '../src/testing.js';
import { recordingLogger } from './helpers.js';

const KEY = 'a fleet secret of 32 characters!';

function bus() {
  const clock = new VirtualClock();
  const messenger = new MemoryMessenger();
  const presence = new MemoryPresence(clock);
  const log = recordingLogger();
  const handoff = (jobId: string, signing?: HandoffSigning) =>
    new Handoff({
      jobId,
      messenger,
      presence,
      scheduler: clock,
      logger: log.logger,
      ...(signing ? { signing } : {}),
    });
  return { clock, messenger, presence, log, handoff };
}

function listener(handoff: Handoff) {
  const heard: string[] = [];
  const client: HandoffClient = {
    name: 'PlayerData',
    receiveHandoffRequest: (key, requester, token) =>
      void heard.push(`Q ${key} ${requester} ${token}`),
    receiveHandoffReply: (key) => void heard.push(`R ${key}`),
  };
  handoff.register(client);
  return heard;
}

/** The requests `handoff` routes, with the token each asks the lock be handed to. */
function handToListener(handoff: Handoff) {
  const asked: string[] = [];
  handoff.register({
    name: 'PlayerData',
    receiveHandoffRequest: (key, requester, token, _reason, handTo) =>
      void asked.push(`Q ${key} ${requester} ${token} ${handTo}`),
    receiveHandoffReply: () => undefined,
  });
  return asked;
}

describe('signed handoff messages', () => {
  it('a captured signed reply replayed to another server is taken (README: the signature covers the fields, not the topic or time)', async () => {
    const { clock, messenger, handoff } = bus();
    const b = handoff('B', { key: KEY });
    const c = handoff('C', { key: KEY });
    const heardByC = listener(c);
    let captured: unknown;
    await messenger.subscribe(topicOf('Z'), (message) => {
      captured = message;
    });
    await clock.advance(0);
    await clock.run(b.reply('PlayerData', 'p1', 'Z'));
    await clock.advance(60_000);
    await messenger.publish(topicOf('C'), captured as never);
    await clock.advance(0);
    expect(heardByC).toEqual(['R p1']);
  });

  it('a signed request and reply between two signing servers are routed', async () => {
    const { clock, handoff } = bus();
    const a = handoff('A', { key: KEY });
    const b = handoff('B', { key: KEY });
    const heardByA = listener(a);
    const heardByB = listener(b);
    await clock.advance(0);
    await clock.run(b.request('PlayerData', 'p1', 'A', 't1'));
    await clock.run(a.reply('PlayerData', 'p1', 'B'));
    await clock.advance(0);
    expect(heardByA).toEqual(['Q p1 B t1']);
    expect(heardByB).toEqual(['R p1']);
  });

  it('drops unsigned, wrongly signed and tampered messages, warning once a minute for each', async () => {
    const { clock, messenger, handoff, log } = bus();
    const a = handoff('A', { key: KEY });
    const heard = listener(a);
    const stranger = handoff('X', { key: 'another key of at least 16 bytes' });
    await clock.advance(0);
    const publish = (message: object) => messenger.publish(topicOf('A'), message as never);
    await publish({ T: 'Q', D: 'PlayerData', K: 'p1', R: 'X' });
    await publish({ T: 'Q', D: 'PlayerData', K: 'p2', R: 'X' });
    await clock.run(stranger.request('PlayerData', 'p1', 'A', 't'));
    const signer = handoff('Y', { key: KEY });
    let captured: Record<string, unknown> | undefined;
    await messenger.subscribe(topicOf('Z'), (message) => {
      captured = message as Record<string, unknown>;
    });
    await clock.run(signer.reply('PlayerData', 'p1', 'Z'));
    await clock.advance(0);
    await publish({ ...captured, K: 'someone-else' }); // the signature of another message
    await clock.advance(0);
    expect(heard).toEqual([]);
    expect(log.warnings()).toEqual([
      'handoff dropped an unsigned message (signing is on); more this minute are not logged.',
      'handoff dropped a wrongly signed message (signing is on); more this minute are not logged.',
    ]);
  });

  it('with acceptUnsigned, unsigned messages pass and wrongly signed ones do not', async () => {
    const { clock, messenger, handoff } = bus();
    const a = handoff('A', { key: KEY, acceptUnsigned: true });
    const heard = listener(a);
    await clock.advance(0);
    await messenger.publish(topicOf('A'), { T: 'R', D: 'PlayerData', K: 'p1' });
    await messenger.publish(topicOf('A'), { T: 'R', D: 'PlayerData', K: 'p2', S: 'forged' });
    await clock.advance(0);
    expect(heard).toEqual(['R p1']);
  });

  it('a server without signing acts on signed messages (mixed fleets keep working)', async () => {
    const { clock, handoff } = bus();
    const old = handoff('A');
    const heard = listener(old);
    const signing = handoff('B', { key: KEY });
    await clock.advance(0);
    await clock.run(signing.request('PlayerData', 'p1', 'A', 't1'));
    await clock.advance(0);
    expect(heard).toEqual(['Q p1 B t1']);
  });

  it('a hand-over token is acted on only with its own valid signature; without one the request is still routed', async () => {
    const { clock, messenger, handoff } = bus();
    const a = handoff('A', { key: KEY });
    const asked = handToListener(a);
    const b = handoff('B', { key: KEY });
    let captured: Record<string, unknown> | undefined;
    await messenger.subscribe(topicOf('A'), (message) => {
      captured ??= message as Record<string, unknown>;
    });
    await clock.advance(0);
    await clock.run(b.request('PlayerData', 'p1', 'A', 't1', 'tB'));
    await clock.advance(0);
    expect(captured).toMatchObject({ H: 'tB', S: expect.any(String), SH: expect.any(String) });
    const publish = (message: object) => messenger.publish(topicOf('A'), message as never);
    // Another token under the captured signatures, and the token with no signature of its own.
    await publish({ ...captured, H: 'forged' });
    const { SH: _dropped, ...withoutSH } = captured as Record<string, unknown>;
    await publish(withoutSH);
    await clock.advance(0);
    expect(asked).toEqual(['Q p1 B t1 tB', 'Q p1 B t1 undefined', 'Q p1 B t1 undefined']);
  });

  it('a holder that signs without knowing hand-overs still accepts the request: S signs what it always signed', async () => {
    const { clock, messenger, handoff } = bus();
    const a = handoff('A', { key: KEY });
    const b = handoff('B', { key: KEY });
    const heard = listener(a);
    const sent: Array<Record<string, unknown>> = [];
    await messenger.subscribe(topicOf('A'), (message) => {
      sent.push(message as Record<string, unknown>);
    });
    await clock.advance(0);
    await clock.run(b.request('PlayerData', 'p1', 'A', 't1'));
    await clock.run(b.request('PlayerData', 'p1', 'A', 't1', 'tB'));
    await clock.advance(0);
    expect(sent).toHaveLength(2);
    expect(sent[1]?.S).toBe(sent[0]?.S);
    expect(heard).toEqual(['Q p1 B t1', 'Q p1 B t1']);
  });

  it('a holder without signing takes no hand-over token: the request is routed without it', async () => {
    const { clock, messenger, handoff } = bus();
    const a = handoff('A');
    const asked = handToListener(a);
    await clock.advance(0);
    await messenger.publish(topicOf('A'), {
      T: 'Q',
      D: 'PlayerData',
      K: 'p1',
      R: 'B',
      L: 't1',
      H: 'tB',
    });
    await clock.advance(0);
    expect(asked).toEqual(['Q p1 B t1 undefined']);
  });

  it('a joiner without signing asks for no hand-over', async () => {
    const { clock, messenger, handoff } = bus();
    const b = handoff('B');
    const sent: unknown[] = [];
    await messenger.subscribe(topicOf('A'), (message) => void sent.push(message));
    await clock.advance(0);
    await clock.run(b.request('PlayerData', 'p1', 'A', 't1', 'tB'));
    await clock.advance(0);
    expect(sent).toEqual([{ T: 'Q', D: 'PlayerData', K: 'p1', R: 'B', L: 't1' }]);
  });

  it('a request that would not fit a message with its hand-over token goes without it', async () => {
    const { clock, messenger, handoff } = bus();
    const b = handoff('B', { key: KEY });
    const sent: Array<Record<string, unknown>> = [];
    await messenger.subscribe(topicOf('A'), (message) => void sent.push(message as never));
    await clock.advance(0);
    const key = 'k'.repeat(800);
    await clock.run(b.request('PlayerData', key, 'A', 't1', 'h'.repeat(120)));
    await clock.run(b.request('PlayerData', 'p1', 'A', 't1', 'h'.repeat(120)));
    await clock.advance(0);
    expect(sent.map((message) => [message.K === key, message.H !== undefined])).toEqual([
      [true, false],
      [false, true],
    ]);
  });

  it('refuses a key shorter than 16 bytes with Data.InvalidConfig', () => {
    const { handoff } = bus();
    expect(() => handoff('A', { key: 'short' })).toThrow(
      expect.objectContaining({ code: ErrorCode.InvalidConfig }),
    );
  });

  it('a live player is handed over between signing drivers, and a bus-only request cannot kick them', async () => {
    const { clock, messenger, presence, handoff } = bus();
    const store = new MemoryStore();
    const driver = (jobId: string) =>
      new DataDriver({
        name: 'PlayerData',
        defaults: { coins: 0 },
        store,
        scheduler: clock,
        jobId,
        messenger,
        presence,
        handoff: handoff(jobId, { key: KEY }),
        logger: recordingLogger().logger,
      });
    const a = driver('A');
    const hostA = new MemoryHost('A');
    a.attach(hostA);
    hostA.join('p1');
    await clock.advance(100);
    await messenger.publish(topicOf('A'), { T: 'Q', D: 'PlayerData', K: 'p1', R: 'X' });
    await clock.advance(100);
    expect(hostA.kicks).toEqual([]);
    const b = driver('B');
    const profile = await clock.run(b.load('p1'));
    expect(profile.active).toBe(true);
    expect(hostA.kicks).toEqual([{ player: 'p1', message: 'You joined another server.' }]);
  });
});
