import type { WidgetLanguage } from '@botsmith/contract';

/**
 * The language of the widget's own texts (docs/product.md#widget-languages): the owner's fixed
 * choice, else the first of the visitor's languages the widget speaks ('pt-BR' → 'pt'), else
 * English. `spoken` lists the languages built (the loader's chunk table, see build.mjs).
 */
export function pickLanguage(
  fixed: string | undefined,
  preferred: readonly string[],
  spoken: Partial<Record<WidgetLanguage, unknown>>,
): WidgetLanguage {
  for (const tag of fixed && fixed != 'auto' ? [fixed] : preferred) {
    const lang = tag.slice(0, 2).toLowerCase();
    if (lang in spoken) return lang as WidgetLanguage;
  }
  return 'en';
}

/** The texts of one language: the keys of src/lang/en.ts, which every file beside it has. */
export type Texts = Record<keyof typeof import('../lang/en').default, string>;

/** The lead form's and the conversation extras' texts (src/lang/extras/, the window's second chunk). */
export type ExtrasTexts = Record<keyof typeof import('../lang/extras/en').default, string>;
