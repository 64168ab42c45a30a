import { backendsGlobalSetup } from '@datadriver/backends';

// DynamoDB Local, or DDB_ENDPOINT when set; under CI=true a failed start fails the run.
export default backendsGlobalSetup('dynamodb');
