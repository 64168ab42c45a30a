/**
 * A backend could not be started on this machine. The message always names what is missing and
 * how to get it, because the test run fails on it rather than skipping: whoever reads the failure
 * should be able to fix the machine without reading this package.
 */
export class BackendUnavailableError extends Error {
  override readonly name = 'BackendUnavailableError';

  constructor(
    readonly backend: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
