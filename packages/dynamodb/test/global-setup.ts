import { backendsGlobalSetup } from '@datadriver/backends';

// DynamoDB Local (or DDB_ENDPOINT), and the redis-server and Pub/Sub emulator that the stacks
// put beside it (or REDIS_URL, PUBSUB_EMULATOR_HOST); under CI=true a failed start fails the run.
export default backendsGlobalSetup('dynamodb', 'redis', 'pubsub');
