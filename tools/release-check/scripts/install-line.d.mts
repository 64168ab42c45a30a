/** The fields of a published package's manifest an install line reads. */
export interface InstallManifest {
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
}

/** `ioredis@5` for `^5.11.1 || ^6.0.0`: a shell word npm resolves inside the range. */
export declare function peerSpec(name: string, range: string): string;

/** `npm install <tarballs of name and the @datadriver packages it needs> <its other peers>`. */
export declare function installLine(
  name: string,
  manifests: ReadonlyMap<string, InstallManifest>,
  tarballOf: (name: string) => string,
): string;
