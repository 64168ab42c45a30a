import { backendsGlobalSetup } from '../src/index.js';

export default backendsGlobalSetup('redis');
