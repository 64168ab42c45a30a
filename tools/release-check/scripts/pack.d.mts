/** A package packed as `pnpm publish` would pack it. */
export interface Packed {
  /** Its folder under packages/ ("core"). */
  readonly folder: string;
  /** "@datadriver/core". */
  readonly name: string;
  readonly version: string;
  /** The tarball's absolute path. */
  readonly filename: string;
  /** The paths inside the tarball (`dist/index.js`, `README.md`, ...). */
  readonly files: readonly string[];
}

/** Packs `packages/<name>` into `into`. */
export declare function packPackage(name: string, into: string): Promise<Packed>;
