import type { AppConfig } from '../../config/config.js';
import { isStorageKey } from './file-storage.js';

/** Where a stored file is served: `/uploads/<key>` on the product's own origin. */
export const UPLOADS_PATH = '/uploads';

export function uploadPath(key: string): string {
  return `${UPLOADS_PATH}/${key}`;
}

/** The absolute address of an icon, so the widget can show it on customers' sites. */
export function publicFileUrl(config: Pick<AppConfig, 'publicUrl'>, key: string): string {
  return `${config.publicUrl}${uploadPath(key)}`;
}

/**
 * The storage key of an icon address made here (absolute on PUBLIC_URL, or the bare
 * `/uploads/icons/...` path), or null for anything else.
 */
export function iconKeyFromUrl(config: Pick<AppConfig, 'publicUrl'>, url: string): string | null {
  let path: string;
  if (url.startsWith(`${config.publicUrl}${UPLOADS_PATH}/`)) path = url.slice(config.publicUrl.length);
  else if (url.startsWith(`${UPLOADS_PATH}/`)) path = url;
  else return null;
  const key = path.slice(UPLOADS_PATH.length + 1);
  return key.startsWith('icons/') && isStorageKey(key) ? key : null;
}
