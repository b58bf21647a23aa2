/**
 * Which of the widget's languages (docs/product.md#widget-languages) a visitor's message is in,
 * guessed cheaply from its most common words (and Japanese from its script), for the offline demo
 * model's note: it answers in its sources' words, and says so in the visitor's language.
 */
export type QuestionLanguage = 'en' | 'es' | 'fr' | 'de' | 'pt' | 'it' | 'nl' | 'ja';

const COMMON_WORDS: Record<Exclude<QuestionLanguage, 'ja'>, ReadonlySet<string>> = {
  en: new Set(
    'the is are what how do does can i you my your it of and to in for with much many cost when where which have'.split(
      ' ',
    ),
  ),
  de: new Set(
    'der die das ist sind wie was wer wo wann ich du sie es ein eine einen nicht und mit für kann können viel kostet gibt auf zu den dem haben habe mein meine ihr euch auch'.split(
      ' ',
    ),
  ),
  es: new Set(
    'el la los las es son qué que cómo cuánto cuánta cuesta puedo puede de y en un una para por con mi tu hay se del al'.split(
      ' ',
    ),
  ),
  fr: new Set(
    'le la les est sont quoi comment combien coûte je peux puis vous un une des du et pour avec mon ma mes est-ce il elle y'.split(
      ' ',
    ),
  ),
  pt: new Set(
    'o a os as é são que como quanto quanta custa posso pode de e em um uma para com meu minha você não do da no na'.split(
      ' ',
    ),
  ),
  it: new Set(
    'il lo la gli le è sono che come quanto quanta costa posso può di e in un una per con mio mia non del della cosa'.split(
      ' ',
    ),
  ),
  nl: new Set('de het een is zijn wat hoe hoeveel kost kan ik jij u mijn en van voor met niet er ook mag'.split(' ')),
};

/** The language of `text`: the one whose common words it holds most of; English when none stands out. */
export function questionLanguage(text: string): QuestionLanguage {
  const value = String(text ?? '');
  if (/[\u3040-\u30ff]/u.test(value)) return 'ja';
  const words = value.toLowerCase().match(/[\p{L}'-]+/gu) ?? [];
  let best: QuestionLanguage = 'en';
  let bestHits = 0;
  for (const [language, common] of Object.entries(COMMON_WORDS) as Array<[QuestionLanguage, ReadonlySet<string>]>) {
    const hits = words.filter((word) => common.has(word)).length;
    // English wins a tie: most sources are English, and then no note is needed.
    if (hits > bestHits || (hits === bestHits && language === 'en')) {
      best = language;
      bestHits = hits;
    }
  }
  return bestHits === 0 ? 'en' : best;
}

/**
 * The offline demo model's one-line note in the visitor's language: it answers only from the
 * bot's sources, in their language. None for English (its English cannot-answer note is
 * OFFLINE_CANNOT_ANSWER_NOTE).
 */
export const OFFLINE_LANGUAGE_NOTES: Record<Exclude<QuestionLanguage, 'en'>, string> = {
  de: '(Offline-Demomodell: Ich antworte nur aus den Quellen dieses Bots, in ihrer Sprache.)',
  es: '(Modelo de demostración sin conexión: solo respondo con las fuentes de este bot, en su idioma.)',
  fr: '(Modèle de démonstration hors ligne : je réponds uniquement à partir des sources de ce bot, dans leur langue.)',
  pt: '(Modelo de demonstração offline: respondo apenas com as fontes deste bot, no idioma delas.)',
  it: '(Modello dimostrativo offline: rispondo solo dalle fonti di questo bot, nella loro lingua.)',
  nl: '(Offline demomodel: ik antwoord alleen uit de bronnen van deze bot, in hun taal.)',
  ja: '（オフラインのデモモデル：このボットの情報源からのみ、その言語で回答します。）',
};
