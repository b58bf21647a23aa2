import path from 'node:path';
import type { SourceFormat } from './bot-source.entity.js';

// eslint-disable-next-line no-control-regex
const UNSAFE_NAME_CHARACTERS = /[\u0000-\u001f\u007f<>:"|?*]/g;

/**
 * The client's file name, for display only: no folders, no control characters, at most 255
 * characters. It never reaches the disk (files are stored under generated keys).
 */
export function sourceFileName(original: string, format: SourceFormat): string {
  const base = path.posix.basename(String(original ?? '').replace(/\\/g, '/'));
  let name = base.replace(UNSAFE_NAME_CHARACTERS, '').replace(/\s+/g, ' ').trim().replace(/^\.+/, '');
  if (!name) name = `document.${format}`;
  if (name.length > 255) name = name.slice(0, 255);
  return name;
}
