import { backendsGlobalSetup } from '@datadriver/backends';

export default backendsGlobalSetup('redis', 'dynamodb', 'postgres');
