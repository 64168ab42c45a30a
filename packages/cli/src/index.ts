export type { DropResult, InboxListing, PendingRow, SendCliResult } from './inbox-commands.js';
export type { Inspection } from './inspect.js';
export type { CliIo } from './io.js';
export { processIo } from './io.js';
export type { Beat, Liveness } from './liveness.js';
export { runCli, VERSION } from './program.js';
export type { UserMatch, VersionRow } from './read-commands.js';
export type { Verdict, VerdictState } from './verdict.js';
export type { EraseResult, RestoreResult } from './write-commands.js';
