const STORY_TYPES = [
  'presence.beat',
  'player.left',
  'server.crashed',
  // A grant reaching the server's POST /grant (a payment webhook's stand-in): sent, durable.
  'gift.sent',
  // A real server process that died without being asked to (the Redis runner).
  'server.exited',
] as const;

export type StoryEventType = (typeof STORY_TYPES)[number];

/** What the story itself does to a server, beside what the core reports. */
export type StoryEvent = {
  readonly [T in StoryEventType]: {
    readonly type: T;
    readonly time: number;
    readonly jobId: string;
  };
}[StoryEventType];

export function isStoryEvent(event: { readonly type: string }): event is StoryEvent {
  return (STORY_TYPES as readonly string[]).includes(event.type);
}
