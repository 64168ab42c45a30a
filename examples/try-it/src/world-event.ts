import type { DataDriverEvent } from '@datadriver/core';
import type { StoryEvent } from './story-event.js';

/** A core event or a story event, with the label of the server it happened on. */
export type WorldEvent = (DataDriverEvent | StoryEvent) & { readonly server: string };

export type WorldEventType = WorldEvent['type'];

export type WorldEventOf<T extends WorldEventType> = Extract<WorldEvent, { readonly type: T }>;
