// The part of madge's API that check-cycles.ts uses (madge ships no types).
declare module 'madge' {
  interface MadgeConfig {
    fileExtensions?: string[];
    /** A tsconfig file, or its parsed contents (then `baseUrl` and `paths` resolve aliases). */
    tsConfig?: string | { compilerOptions: Record<string, unknown> };
    excludeRegExp?: RegExp[];
    detectiveOptions?: Record<string, Record<string, unknown>>;
  }
  interface MadgeResult {
    /** Each cycle as the files in it, relative to the base directory. */
    circular(): string[][];
    /** Every file with the files it imports. */
    obj(): Record<string, string[]>;
  }
  export default function madge(path: string, config?: MadgeConfig): Promise<MadgeResult>;
}
