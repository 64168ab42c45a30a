/**
 * Plays the cases on the real core over the in-memory backend: each run builds fresh servers
 * on a fresh virtual clock, brings them to the story's start at once, then plays the story
 * paced against wall time and streams every event as it happens.
 */
import { CASES } from '../catalog.js';
import type { CaseInfo, CaseRunner, Outcome, RunOptions, StreamSink } from '../stream.js';
import { timelineText } from '../timeline-text.js';
import type { WorldEvent } from '../world-event.js';
import { MEMORY_SCRIPTS } from './cases/index.js';
import { DemoWorld } from './demo-world.js';
import { drive } from './pacer.js';

export class MemoryCaseRunner implements CaseRunner {
  readonly mode = 'in-memory';
  readonly about =
    'Each case runs the real DataDriver core on the in-memory backend, on a virtual clock paced against yours: every store call takes 100 ms, every message 20 ms, every presence call 10 ms. The times shown are the virtual clock’s, exact to the millisecond.';
  readonly clock = 'virtual';
  readonly cases: readonly CaseInfo[] = CASES;

  async run(caseId: string, options: RunOptions, sink: StreamSink): Promise<Outcome> {
    const info = this.cases.find((item) => item.id === caseId);
    const script = MEMORY_SCRIPTS.get(caseId);
    if (!info || !script) throw new RangeError(`no case ${caseId}`);
    const world = new DemoWorld();
    try {
      const story = await world.clock.run(script.setup(world));
      const start = world.clock.now();
      const rate = options.speed === 'instant' ? undefined : options.speed * info.pace;
      sink({ kind: 'started', caseId, mode: this.mode, servers: info.servers, rate: rate ?? null });
      let end: number | undefined;
      world.on((event) => {
        // Past the outcome the story is over; later events belong to no case.
        if (end === undefined || event.time <= end) forward(event, start, sink);
      });
      const outcome = await drive(world.clock, story(), {
        rate,
        ...(options.signal ? { signal: options.signal } : {}),
        onTick: (now) => sink({ kind: 'clock', t: now - start }),
      });
      end = world.clock.now();
      await world.clock.advance(0); // lets what happens at that same instant be reported
      sink({ kind: 'outcome', t: end - start, outcome });
      return outcome;
    } finally {
      await world.stop();
    }
  }

  /** Each run stops its own world: nothing outlives a run. */
  async close(): Promise<void> {}
}

function forward(event: WorldEvent, start: number, sink: StreamSink): void {
  const words = timelineText(event, (jobId) => jobId);
  if (!words) return;
  sink({
    kind: 'entry',
    entry: { t: event.time - start, server: event.server, type: event.type, ...words },
  });
}
