/** A minimal Word document (the parts Word itself needs) with one paragraph per entry of `paragraphs`. */
export function makeDocx(paragraphs: string[]): Promise<Buffer>;
