/**
 * The steps of a live hand-over, each ending at an event on the joining server (target) or on
 * the holder, and their durations collected over many hops.
 */
import type { DataDriverEvent } from '@datadriver/core';
import { summarize } from '../stats.js';

export type Side = 'target' | 'holder';
export type Step = readonly [on: Side, type: DataDriverEvent['type']];

export const HANDOVER_STEPS: readonly Step[] = [
  ['target', 'load.started'],
  ['target', 'handoff.request.sent'],
  ['holder', 'handoff.request.received'],
  ['holder', 'profile.kicked'],
  ['holder', 'profile.releasing'],
  ['holder', 'profile.released'],
  ['holder', 'handoff.reply.sent'],
  ['target', 'handoff.reply.received'],
  ['target', 'load.loaded'],
];

/** The time of an event of one hop, or undefined when it did not arrive. */
export type EventTime = (on: Side, type: DataDriverEvent['type']) => number | undefined;

export class StepTimes {
  private readonly durations = new Map<string, number[]>();

  /** Adds each step of one hop whose two ends both arrived. */
  add(timeOf: EventTime): void {
    const times = HANDOVER_STEPS.map(([on, type]) => timeOf(on, type));
    for (let index = 1; index < times.length; index++) {
      const [start, end] = [times[index - 1], times[index]];
      if (start === undefined || end === undefined) continue;
      const name = stepName(index);
      const list = this.durations.get(name) ?? [];
      list.push(end - start);
      this.durations.set(name, list);
    }
  }

  /** Median duration of each step, in order. */
  medians(): Record<string, number> {
    const result: Record<string, number> = {};
    for (let index = 1; index < HANDOVER_STEPS.length; index++) {
      const samples = this.durations.get(stepName(index));
      if (samples) result[stepName(index)] = summarize(samples).median;
    }
    return result;
  }
}

function stepName(index: number): string {
  return `${HANDOVER_STEPS[index - 1]![1]} -> ${HANDOVER_STEPS[index]![1]}`;
}
