/** Types for the parts of `@std/path` (npm mirror `deno-std`) chant-wave uses. */

export const SEPARATOR: string;
export function basename(path: string, suffix?: string): string;
export function dirname(path: string): string;
export function extname(path: string): string;
export function fromFileUrl(url: string | URL): string;
export function isAbsolute(path: string): boolean;
export function join(...paths: string[]): string;
export function normalize(path: string): string;
export function relative(from: string, to: string): string;
export function resolve(...paths: string[]): string;
export function toFileUrl(path: string): URL;
