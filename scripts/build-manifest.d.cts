// Types of build-manifest.cjs (plain CommonJS, loaded by the production launcher and by TypeScript tests).
export interface InputSet {
  paths: string[];
  ignored: string[];
  keep(rel: string): boolean;
}
export interface InputsRecord {
  sha256: string;
  /** When the build started reading the inputs (ms since the epoch). */
  readAt: number;
  files: Record<string, string>;
}
export interface Manifest {
  builtAt: string;
  node: string;
  server: InputsRecord;
  spa: InputsRecord | null;
}
export type BuildVerdict = { ok: true; hashed: Array<'server' | 'spa'> } | { ok: false; reason: string };

export const BUILD_DIR: string;
export const MANIFEST: string;
export const ENTRY: string;
export const SETS: { server: InputSet; spa: InputSet };
export const SPA_INPUTS: string[];
export const SPA_IGNORED: string[];
export function listInputs(root: string, set: InputSet): { files: string[]; newest: number };
export function hashFiles(root: string, files: string[]): { sha256: string; files: Record<string, string> };
export function recordInputs(root: string, which: 'server' | 'spa'): InputsRecord;
export function writeManifest(root: string, records: { server: InputsRecord; spa: InputsRecord | null }): Manifest;
export function readManifest(root: string): Manifest | null;
export function checkBuild(root: string, opts?: { distDir?: string; serverOnly?: boolean }): BuildVerdict;
