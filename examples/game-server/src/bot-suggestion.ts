/**
 * What `pnpm fleet` suggests once it is up: the bot's command over every server it started.
 * The bot hops between servers, so it refuses fewer than two (`--servers needs at least two
 * servers`); a fleet of one says so and how to start one the bot can play on, instead of
 * suggesting a command the bot would refuse.
 */
export function botSuggestion(serverUrls: readonly string[]): readonly string[] {
  if (serverUrls.length < 2) {
    return [
      'The bot hops between game servers, so it needs at least two: start the fleet with',
      '  pnpm fleet --count 2',
      'to play with it.',
    ];
  }
  return [
    'Play with the bot in another terminal:',
    `  pnpm bot --servers ${serverUrls.join(',')} --hops 10`,
  ];
}
