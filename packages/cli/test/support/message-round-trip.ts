/**
 * One profile-message round trip through the CLI, for every store it supports: a send a live
 * holder applies on the nudge, a message its handler always throws on shown by `inbox` and
 * `inspect`, its `--drop`, and a resend of an applied id answered `duplicate`.
 */
import type { DataDriverEvent, ProfileMessage } from '@datadriver/core';
import { expect } from 'vitest';
import type { DropResult, InboxListing, Inspection, SendCliResult } from '../../src/index.js';
import { cli, json } from './cli.js';
import type { GameServer, Player } from './game-server.js';

export type MessageHandler = (profile: { data: Player }, message: ProfileMessage) => void;

export async function messageRoundTrip(
  args: readonly string[],
  start: (onMessage: MessageHandler) => Promise<GameServer>,
  key: string,
): Promise<void> {
  const applied: string[] = [];
  const server = await start((profile, message) => {
    const body = message.body as { coins?: number; throws?: boolean };
    if (body.throws) throw new Error('this handler refuses it');
    profile.data.coins += body.coins ?? 0;
    applied.push(message.id);
  });
  await server.join(key);
  const send = async (body: string, id: string) =>
    json<SendCliResult>(
      await cli([...args, '--json', 'send', 'PlayerData', key, body, '--id', id]),
    );

  const appliedEvent = next(server, 'message.applied');
  expect(await send('{"coins":7}', 'grant-1')).toMatchObject({ outcome: 'queued' });
  await expect(appliedEvent).resolves.toMatchObject({ ids: ['grant-1'] });
  expect(server.driver.profile(key)!.data.coins).toBe(7);

  const failed = next(server, 'message.failed');
  expect(await send('{"throws":true}', 'bad')).toMatchObject({ outcome: 'queued' });
  await failed;
  const listed = json<InboxListing>(await cli([...args, '--json', 'inbox', 'PlayerData', key]));
  expect(listed.pending.map((row) => [row.id, row.body])).toEqual([['bad', { throws: true }]]);
  const inspected = json<Inspection>(await cli([...args, '--json', 'inspect', 'PlayerData', key]));
  expect(inspected.messages).toMatchObject({ pending: 1, oldest: { id: 'bad' } });

  const dropped = json<DropResult>(
    await cli([...args, '--json', 'inbox', 'PlayerData', key, '--drop', 'bad', '--yes']),
  );
  expect(dropped).toMatchObject({ dropped: true, appliedByHolder: false });
  const after = json<InboxListing>(await cli([...args, '--json', 'inbox', 'PlayerData', key]));
  expect(after).toMatchObject({ pending: [], remembered: 2 });
  expect(await send('{"coins":7}', 'grant-1')).toMatchObject({ outcome: 'duplicate' });
  expect(applied).toEqual(['grant-1']);
}

function next(server: GameServer, type: DataDriverEvent['type']): Promise<DataDriverEvent> {
  return new Promise((resolve) => {
    const off = server.driver.on((event) => {
      if (event.type === type) {
        off();
        resolve(event);
      }
    });
  });
}
