/**
 * Test PDFs that attack the reader, in plain JavaScript so the benchmarks (bench/*.mjs) build the
 * same files the tests upload.
 */
import zlib from 'node:zlib';

/**
 * A compression bomb: a PDF of well under a megabyte whose one page's content stream inflates
 * to `inflatedMb` MB: one text operator whose array holds a hundred million numbers and more,
 * so reading it takes time and memory without bound. Deflated a megabyte at a time, so building
 * it never holds the inflated bytes.
 */
export async function makeCompressionBombPdf(inflatedMb) {
  const deflate = zlib.createDeflate({ level: 9 });
  const compressed = [];
  deflate.on('data', (piece) => compressed.push(piece));
  const ended = new Promise((resolve, reject) => deflate.on('end', resolve).on('error', reject));
  const write = (data) => new Promise((resolve) => (deflate.write(data) ? resolve() : deflate.once('drain', resolve)));
  const megabyte = Buffer.alloc(1024 * 1024, '0 ');
  await write(Buffer.from('BT /F1 12 Tf ['));
  for (let i = 0; i < inflatedMb; i += 1) await write(megabyte);
  deflate.end(Buffer.from('] TJ ET\n'));
  await ended;
  const content = Buffer.concat(compressed);

  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    null, // the content stream, written below
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  const parts = [Buffer.from('%PDF-1.7\n')];
  const offsets = [];
  let length = parts[0].length;
  const push = (part) => {
    parts.push(part);
    length += part.length;
  };
  objects.forEach((body, index) => {
    offsets.push(length);
    if (body === null) {
      push(Buffer.from(`${index + 1} 0 obj\n<< /Length ${content.length} /Filter /FlateDecode >>\nstream\n`));
      push(content);
      push(Buffer.from('\nendstream\nendobj\n'));
    } else {
      push(Buffer.from(`${index + 1} 0 obj\n${body}\nendobj\n`));
    }
  });
  const xref = length;
  const entries = offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  push(
    Buffer.from(
      `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${entries}` +
        `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`,
    ),
  );
  return Buffer.concat(parts);
}
