/** Hands a downloaded file to the browser's "save" flow. */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Give the browser time to start the download before the blob is released.
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
