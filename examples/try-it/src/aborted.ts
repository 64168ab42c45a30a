/** How a run stopped by its `signal` (the page went away) rejects: not a failure. */
export class Aborted extends Error {
  constructor() {
    super('the run was stopped');
    this.name = 'Aborted';
  }
}
