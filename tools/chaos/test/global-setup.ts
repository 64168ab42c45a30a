/**
 * DynamoDB Local starts before any test file, with nothing of this run beside it: a JVM's start
 * is CPU the short runs' server processes would otherwise share (it took 34 to 68 s among them
 * on a loaded 2-core machine, 10 s alone). The DynamoDB short run uses it (`dynamoEndpoint`);
 * `pnpm chaos` starts its own. Under CI=true a failed start fails the run.
 */
import { startDynamoLocal } from '@datadriver/backends';
import type { TestProject } from 'vitest/node';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dynamo = await startDynamoLocal({ quickStart: true });
  project.provide('dynamoEndpoint', dynamo.endpoint);
  return () => dynamo.stop();
}
