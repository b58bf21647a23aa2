import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { isStorageKey, type FileStorage, type StoredFile } from './file-storage.js';

/** Files under one folder on this machine (default: DATA_DIR/uploads). */
export class LocalDiskStorage implements FileStorage {
  readonly kind = 'local';

  constructor(private readonly root: string) {}

  async put(key: string, body: Buffer): Promise<void> {
    const file = this.pathOf(key);
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    // Written beside its final name and renamed, so a reader never sees half a file.
    const temporary = `${file}.${crypto.randomBytes(6).toString('hex')}.tmp`;
    try {
      await fs.promises.writeFile(temporary, body, { flag: 'wx', mode: 0o640 });
      await fs.promises.rename(temporary, file);
    } catch (error) {
      await fs.promises.rm(temporary, { force: true });
      throw error;
    }
  }

  async get(key: string): Promise<StoredFile | null> {
    const file = this.pathOf(key);
    try {
      const handle = await fs.promises.open(file, 'r');
      const { size } = await handle.stat();
      return { body: handle.createReadStream(), size };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await fs.promises.rm(this.pathOf(key), { force: true });
  }

  private pathOf(key: string): string {
    if (!isStorageKey(key))
      throw new Error(`Refusing a storage key that was not generated here: ${JSON.stringify(key)}`);
    return path.join(this.root, ...key.split('/'));
  }
}
