/**
 * Pacing moves the virtual clock against wall time, timer by timer: a paced run streams the
 * same timeline as an instant one, with the elapsed clock ticking in between.
 */
import { describe, expect, it } from 'vitest';
import { Aborted } from '../src/aborted.js';
import { MemoryCaseRunner } from '../src/memory/memory-runner.js';
import type { StreamMessage } from '../src/stream.js';
import { record } from './support/record.js';

describe('a paced run', () => {
  it.each(['live-holder', 'crashed-holder'])(
    'streams %s exactly as an instant run does',
    async (caseId) => {
      const instant = await record(caseId);
      const paced = await record(caseId, 100);
      expect(paced.entries).toEqual(instant.entries);
      expect(paced.outcome).toEqual(instant.outcome);
      expect(paced.messages[0]).toMatchObject({
        kind: 'started',
        rate: caseId === 'live-holder' ? 100 : 400,
      });
    },
  );

  it('sends the elapsed clock while the story plays, never past the outcome', async () => {
    const { messages } = await record('failed-release', 5);
    const ticks = messages.flatMap((message) => (message.kind === 'clock' ? [message.t] : []));
    const outcome = messages.find((message) => message.kind === 'outcome');
    expect(ticks.length).toBeGreaterThan(2);
    expect(ticks).toEqual([...ticks].sort((a, b) => a - b));
    expect(ticks.at(-1)).toBeLessThanOrEqual(outcome?.kind === 'outcome' ? outcome.t : 0);
  });

  it('stops when its signal aborts', async () => {
    const stop = new AbortController();
    const messages: StreamMessage[] = [];
    const started = performance.now();
    const run = new MemoryCaseRunner().run(
      'stalled-holder',
      { speed: 1, signal: stop.signal },
      (message) => messages.push(message),
    );
    setTimeout(() => stop.abort(), 100);
    await expect(run).rejects.toBeInstanceOf(Aborted);
    expect(performance.now() - started).toBeLessThan(2000); // the story takes 3.8 s at this pace
    expect(messages.some((message) => message.kind === 'outcome')).toBe(false);
  });
});
