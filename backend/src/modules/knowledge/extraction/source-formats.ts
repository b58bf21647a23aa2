import path from 'node:path';
import { sniffFileType } from '../../../common/file-type.js';
import type { SourceFormat } from '../bot-source.entity.js';

const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** Text formats are told apart by the file's extension once the bytes are known to be text. */
const TEXT_EXTENSIONS: Record<string, SourceFormat> = {
  '.txt': 'txt',
  '.text': 'txt',
  '.md': 'md',
  '.markdown': 'md',
  '.html': 'html',
  '.htm': 'html',
  '.csv': 'csv',
};

/**
 * What a file is, from its content: PDF and DOCX by their magic bytes (a DOCX is a zip holding a
 * Word document; file-type looks inside), the text kinds by being valid UTF-8 without NUL bytes
 * and then by their extension (no extension: HTML if it starts like a page, else plain text).
 * Anything else, including text under a foreign extension (.js, .exe), is null: not accepted.
 */
export async function detectSourceFormat(bytes: Buffer, fileName: string): Promise<SourceFormat | null> {
  const detected = await sniffFileType(bytes);
  if (detected?.mime === 'application/pdf') return 'pdf';
  if (detected?.mime === DOCX_MIME) return 'docx';
  if (detected) return null;
  if (!isUtf8Text(bytes)) return null;
  const extension = path.extname(String(fileName ?? '')).toLowerCase();
  if (extension === '') return looksLikeHtml(decodeUtf8(bytes)) ? 'html' : 'txt';
  return TEXT_EXTENSIONS[extension] ?? null;
}

/** Strict UTF-8 (a byte-order mark allowed) with no NUL byte: what a text file is here. */
export function isUtf8Text(bytes: Buffer): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

export function decodeUtf8(bytes: Buffer): string {
  return new TextDecoder('utf-8', { ignoreBOM: false }).decode(bytes);
}

function looksLikeHtml(text: string): boolean {
  return /^\s*(<!doctype html|<html[\s>])/i.test(text.slice(0, 1024));
}

/** The extension a source file is stored under, which fixes its stored content type. */
export const STORED_EXTENSION: Record<SourceFormat, SourceFormat> = {
  pdf: 'pdf',
  docx: 'docx',
  txt: 'txt',
  md: 'md',
  html: 'html',
  csv: 'csv',
};
