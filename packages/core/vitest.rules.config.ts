import { defineConfig } from 'vitest/config';

/**
 * The tests Stryker runs against the `rules` scope's mutants (stryker.config.mjs): the rules'
 * own table tests (and the message rules' property tests), none that builds a driver. Rules are
 * pure functions with table tests, and that is what the scope measures: whether the tables pin
 * each rule down. A rule checked only through a driver (every load decides a lock, every
 * driver checks its options) shows here as covered by no test: the table it lacks. Driver
 * tests run against every mutant in the `flows` scope; run here, each rule mutant would run
 * hundreds of them (a full run would take hours on two cores).
 */
export const ruleTests = [
  // src/rules/*.ts.
  'test/edge-rules.test.ts',
  'test/handoff-rule.test.ts',
  'test/keys.test.ts',
  'test/lock-rules.test.ts',
  'test/park-length.test.ts',
  'test/record-writes.test.ts',
  'test/request-rules.test.ts',
  'test/retries.test.ts',
  'test/same-server-rules.test.ts',
  'test/session-state.test.ts',
  'test/silence.test.ts',
  'test/trade-rules.test.ts',
  'test/json-problems.test.ts',
  'test/config-rules.test.ts',
  'test/schema-rules.test.ts',
  'test/record-rules.test.ts',
  'test/health-rules.test.ts',
  'test/handed-snapshot-rules.test.ts',
  'test/migration-rules.test.ts',
  'test/idle-autosave-rules.test.ts',
  // src/rules/messages/.
  'test/messages/apply.test.ts',
  'test/messages/drop-rules.test.ts',
  'test/messages/exactly-once.test.ts',
  'test/messages/handlers.test.ts',
  'test/messages/inbox-codec.test.ts',
  'test/messages/inbox-size.test.ts',
  'test/messages/message-checks.test.ts',
  'test/messages/nudge.test.ts',
  'test/messages/outbox.test.ts',
  'test/messages/profile-messages.test.ts',
  'test/messages/record-meta.test.ts',
  'test/messages/restore.test.ts',
  'test/messages/send.test.ts',
  'test/messages/send-batch.test.ts',
];

export default defineConfig({
  test: { include: ruleTests, isolate: false },
});
