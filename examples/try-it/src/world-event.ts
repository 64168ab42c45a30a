import type { DataDriverEvent } from '@datadriver/core';
import type { StoryEvent } from './story-event.js';

/** A core event or a story event, with the label of the server it happened on. */
export type WorldEvent = (DataDriverEvent | StoryEvent) & { readonly server: string };

export type WorldEventType = WorldEvent['type'];

export type WorldEventOf<T extends WorldEventType> = Extract<WorldEvent, { readonly type: T }>;

/** Whether `event` is one of `types` on server `label` (and for profile `key`, when given). */
export function isEventOf<T extends WorldEventType>(
  event: WorldEvent,
  label: string,
  types: readonly T[],
  key?: string,
): event is WorldEventOf<T> {
  if (event.server !== label || !(types as readonly string[]).includes(event.type)) return false;
  return key === undefined || ('key' in event && event.key === key);
}
