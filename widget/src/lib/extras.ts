/** The window's second chunk (src/extras/), as the window holds it once imported. */
export type Extras = typeof import('../extras');
