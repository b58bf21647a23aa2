/** A PDF of well under a megabyte whose one page's content stream inflates to `inflatedMb` MB. */
export function makeCompressionBombPdf(inflatedMb: number): Promise<Buffer>;
