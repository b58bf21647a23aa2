import type { FileTypeResult } from 'file-type';

let fileType: Promise<typeof import('file-type')> | undefined;

/**
 * What a file is, from its first bytes (file-type). The package is imported with the first upload
 * rather than at start, where it cost about 60 ms (docs/decisions/0016-chat-path-cost.md,
 * "Start-up: the database on its own thread"); one shared import, since Jest's ESM loader fails
 * when two imports link the same module graph at once.
 */
export async function sniffFileType(bytes: Uint8Array): Promise<FileTypeResult | undefined> {
  fileType ??= import('file-type');
  return (await fileType).fileTypeFromBuffer(bytes);
}
