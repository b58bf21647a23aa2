import { setTimeout as sleep } from 'node:timers/promises';
import { OFFLINE_MODEL_NAME, OFFLINE_MODEL_PREFIX } from '../../../common/constants.js';
import { estimateTokens, LlmError, type LlmPort, type LlmRequest, type LlmResult, type Passage } from './llm.port.js';

/**
 * The embedded model for a machine without OPENAI_API_KEY: no network, no weights. It answers
 * by retrieval — the sentence of the retrieved passages (else of the bot's prompt) that shares the
 * most words with the question — deterministically, says that it is the offline demo model, and
 * streams word by word like a real model, reporting estimated token usage.
 */
export class OfflineDemoLlmAdapter implements LlmPort {
  readonly name = 'offline-demo';

  constructor(private readonly wordDelayMs: number) {}

  upstreamModelFor(): string {
    return OFFLINE_MODEL_NAME;
  }

  async complete(request: LlmRequest, onToken: (text: string) => void): Promise<LlmResult> {
    const answer = composeOfflineAnswer(request.grounding, request.maxTokens);
    const pieces = answer.match(/\S+\s*/g) ?? [answer];
    for (const piece of pieces) {
      if (request.signal.aborted) throw new LlmError('ABORTED', 'The visitor left before the answer.');
      onToken(piece);
      if (this.wordDelayMs > 0) {
        try {
          await sleep(this.wordDelayMs, undefined, { signal: request.signal });
        } catch {
          throw new LlmError('ABORTED', 'The visitor left before the answer.');
        }
      }
    }
    return {
      text: answer,
      upstreamModel: OFFLINE_MODEL_NAME,
      usage: {
        promptTokens: estimateTokens(request.messages.map((m) => m.content).join('\n')),
        completionTokens: estimateTokens(answer),
        estimated: true,
      },
    };
  }
}

const STOP_WORDS = new Set(
  (
    'the a an and or but if of to in on at by for with from as is are was were be been being do does did ' +
    'can could would should will shall may might must have has had i you he she it we they me my your our ' +
    'their this that these those what which who whom whose when where why how there here about into than ' +
    'then them its not no yes so too very just also any some all each please tell know want like get'
  ).split(' '),
);

/** Lowercased content words, crudely stemmed so "refunds" meets "refund" and "pricing" meets "price". */
export function keywords(text: string): Set<string> {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const result = new Set<string>();
  for (const word of words) {
    if (word.length < 3 || STOP_WORDS.has(word)) continue;
    const stem = word.replace(/(ing|ed|es|s)$/, '');
    result.add((stem.length >= 3 ? stem : word).slice(0, 5));
  }
  return result;
}

function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.replace(/\s+/g, ' ').trim())
    .filter((s) => s.length > 0);
}

/** Instructions to the model ("You are...", "Never...") are not facts to tell a visitor. */
const INSTRUCTION = /^(you|your|do not|don't|never|always|answer|respond|reply|be |act |keep|only|if )/i;

function overlap(query: Set<string>, sentence: string): number {
  let score = 0;
  for (const word of keywords(sentence)) if (query.has(word)) score += 1;
  return score;
}

function bestSentences(query: Set<string>, text: string, skipInstructions: boolean): string[] {
  let best: { score: number; index: number } = { score: 0, index: -1 };
  const list = sentences(text).filter((s) => !skipInstructions || !INSTRUCTION.test(s));
  list.forEach((sentence, index) => {
    const score = overlap(query, sentence);
    if (score > best.score) best = { score, index };
  });
  if (best.index < 0) return [];
  const picked = [list[best.index]];
  const next = list[best.index + 1];
  if (next && overlap(query, next) > 0) picked.push(next);
  return picked;
}

function truncateToTokens(text: string, maxTokens: number): string {
  const maxChars = Math.max(maxTokens, 1) * 4;
  if (text.length <= maxChars) return text;
  const cut = text.slice(0, maxChars);
  const space = cut.lastIndexOf(' ');
  return `${(space > OFFLINE_MODEL_PREFIX.length ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** The whole deterministic answer: same inputs, same words. */
export function composeOfflineAnswer(
  grounding: { botName: string; botPrompt: string; passages: Passage[]; question: string },
  maxTokens: number,
): string {
  const query = keywords(grounding.question);
  let body: string | undefined;

  let bestPassage: { score: number; page: number; text: string[] } | undefined;
  for (const passage of grounding.passages) {
    const picked = bestSentences(query, passage.content, false);
    if (picked.length === 0) continue;
    const score = overlap(query, picked.join(' '));
    if (!bestPassage || score > bestPassage.score) bestPassage = { score, page: passage.page, text: picked };
  }
  if (bestPassage) {
    body = `${bestPassage.text.join(' ')} (page ${bestPassage.page})`;
  } else {
    const fromPrompt = bestSentences(query, grounding.botPrompt, true);
    if (fromPrompt.length > 0) body = fromPrompt.join(' ');
  }

  if (!body) {
    body = /^\s*(hi|hello|hey|good (morning|afternoon|evening))\b/i.test(grounding.question)
      ? `Hello! I am ${grounding.botName}. Ask me a question and I will answer from the information I was given.`
      : 'I could not find that in the information I was given. As the offline demo model, I can only quote ' +
        "this bot's instructions and document.";
  }
  return truncateToTokens(`${OFFLINE_MODEL_PREFIX}${body}`, maxTokens);
}
