import { backendsGlobalSetup } from '@datadriver/backends';

export default backendsGlobalSetup('pubsub', 'redis');
