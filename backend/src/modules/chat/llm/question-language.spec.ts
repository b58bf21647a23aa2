import { CANNOT_ANSWER_SENTENCE } from '@botsmith/contract';
import { OFFLINE_MODEL_PREFIX } from '../../../common/constants.js';
import { englishSynonyms } from '../../knowledge/synonyms.js';
import { composeOfflineAnswer, OFFLINE_CANNOT_ANSWER_NOTE } from './offline-demo-llm.adapter.js';
import { OFFLINE_LANGUAGE_NOTES, questionLanguage } from './question-language.js';

const DEMO_TEXT =
  'Botsmith is a hosted no-code AI chatbot builder: create, style and launch AI chatbots on your own website without writing code.\n' +
  'Pricing is per answered message: 3 cents per message with the base model.\n' +
  'Every new account gets $5 of free credits, about 165 messages, which are spent before anything is billed.';

describe("the visitor's language, guessed from the question", () => {
  it.each([
    ['How much does it cost?', 'en'],
    ['Wie viel kostet es?', 'de'],
    ['¿Cuánto cuesta?', 'es'],
    ['Combien ça coûte ?', 'fr'],
    ['Quanto custa o plano?', 'pt'],
    ['Quanto costa il servizio?', 'it'],
    ['Hoeveel kost het?', 'nl'],
    ['いくらですか？', 'ja'],
    ['Pricing?', 'en'],
  ])('%s is %s', (question, language) => {
    expect(questionLanguage(question)).toBe(language);
  });
});

describe('the offline demo model in another language', () => {
  it('answers a German question it cannot answer with the sentence as written and its note in German', () => {
    const answer = composeOfflineAnswer({ botName: 'Demo', passages: [], question: 'Wie viel kostet es?' }, 300);
    expect(answer.startsWith(CANNOT_ANSWER_SENTENCE)).toBe(true);
    expect(answer).toContain(OFFLINE_LANGUAGE_NOTES.de);
    expect(answer).not.toContain(OFFLINE_CANNOT_ANSWER_NOTE);
  });

  it("answers in the sources' words with a one-line note in the visitor's language", () => {
    const answer = composeOfflineAnswer(
      { botName: 'Demo', passages: [], question: 'Sind die free credits kostenlos?', publicText: DEMO_TEXT },
      300,
    );
    expect(answer).toBe(
      `${OFFLINE_MODEL_PREFIX}Every new account gets $5 of free credits, about 165 messages, which are spent before anything is billed.\n${OFFLINE_LANGUAGE_NOTES.de}`,
    );
  });

  it('adds no note to an English question', () => {
    const answer = composeOfflineAnswer(
      { botName: 'Demo', passages: [], question: 'Is it free?', publicText: DEMO_TEXT },
      300,
    );
    expect(answer).toBe(
      `${OFFLINE_MODEL_PREFIX}Every new account gets $5 of free credits, about 165 messages, which are spent before anything is billed.`,
    );
  });

  it('finds "Pricing is..." for "How much does it cost?" through the synonyms, and not without them', async () => {
    const grounding = { botName: 'Demo', passages: [], question: 'How much does it cost?', publicText: DEMO_TEXT };
    expect(composeOfflineAnswer(grounding, 300, await englishSynonyms())).toBe(
      `${OFFLINE_MODEL_PREFIX}Pricing is per answered message: 3 cents per message with the base model.`,
    );
    expect(composeOfflineAnswer(grounding, 300, null).startsWith(CANNOT_ANSWER_SENTENCE)).toBe(true);
  });
});
