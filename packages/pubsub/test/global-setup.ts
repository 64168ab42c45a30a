import { backendsGlobalSetup } from '@datadriver/backends';

// The local Pub/Sub emulator and Redis (the scenarios' store and presence), and Google's
// emulator where gcloud has it (else a printed note); a backend that cannot start fails the run.
export default backendsGlobalSetup('pubsub', 'redis', 'google-pubsub');
