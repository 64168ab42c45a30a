/**
 * The fleet's handoff signing key for `--hand-over-locks`: `HANDOFF_SIGNING_KEY`, or the
 * example's own, which every server of one machine's fleet shares. A real fleet sets its own
 * secret: anyone who knows this one can sign requests.
 */
const EXAMPLE_KEY = 'the example fleet key, not a secret';

export function handoffSigningKey(env: NodeJS.ProcessEnv): string {
  return env.HANDOFF_SIGNING_KEY ?? EXAMPLE_KEY;
}
