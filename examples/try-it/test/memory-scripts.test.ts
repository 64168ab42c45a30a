/**
 * The stories' effect on the shared store: who holds the lock afterwards and what data the
 * record carries. The page shows the timeline; this checks the lock rules behind it held.
 */
import { parseRecord } from '@datadriver/core/rules';
import { describe, expect, it } from 'vitest';
import { MEMORY_SCRIPTS } from '../src/memory/cases/index.js';
import { DemoWorld, DRIVER_NAME } from '../src/memory/demo-world.js';

async function play(caseId: string) {
  const world = new DemoWorld();
  const story = await world.clock.run(MEMORY_SCRIPTS.get(caseId)!.setup(world));
  const before = stored(world);
  const outcome = await world.clock.run(story());
  const after = stored(world);
  await world.stop();
  return { before, outcome, after };
}

function stored(world: DemoWorld) {
  return parseRecord('p1', world.store.peek(`${DRIVER_NAME}/p1`));
}

describe('the stories, on the store', () => {
  it('a live hand-over leaves B holding the lock, with A’s latest data', async () => {
    const { after } = await play('live-holder');
    expect(after?.meta.lock?.jobId).toBe('B');
    expect(after?.data).toEqual({ coins: 11 });
  });

  it('a crash takeover leaves B holding the lock, with A’s last save', async () => {
    const { after } = await play('crashed-holder');
    expect(after?.meta.lock?.jobId).toBe('B');
    expect(after?.data).toEqual({ coins: 5 });
  });

  it('a stalled live holder keeps its lock: the record is untouched', async () => {
    const { before, after } = await play('stalled-holder');
    expect(before?.meta.lock).toMatchObject({ jobId: 'A', presence: true });
    expect(after).toEqual(before);
  });

  it('an older-build holder keeps its lock, without the presence flag: the record is untouched', async () => {
    const { before, after } = await play('older-holder');
    expect(before?.meta.lock).toMatchObject({ jobId: 'A', presence: false });
    expect(before?.data).toEqual({ coins: 6 });
    expect(after).toEqual(before);
  });

  it('a same-server adoption keeps the retained profile’s lock', async () => {
    const { after } = await play('same-server-adopt');
    expect(after?.meta.lock?.jobId).toBe('A');
    expect(after?.data).toEqual({ coins: 7 });
  });
});
