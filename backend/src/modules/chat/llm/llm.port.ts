import type { Citation } from '@botsmith/contract';
import type { ModelTier } from '../../../common/constants.js';

/** The language-model port: what the chat engine needs from any model, real or embedded. */
export const LLM = Symbol('LLM');

export interface LlmMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** Where a passage comes from, as an answer cites it: the contract's (contract/src/chat.ts). */
export type { Citation };

/** A passage of one of the bot's sources, with the PDF page it comes from and its citation. */
export interface Passage {
  page: number;
  content: string;
  citation?: Citation;
  /**
   * The owner's correction answering the visitor's question (or a close variant): the owner's
   * own answer, which the model must give (docs/product.md#corrections). Retrieval puts it first.
   */
  correction?: { question: string };
  /** The owner wrote it (a written answer or a correction): an answer may link to its addresses. */
  ownerWritten?: true;
}

export interface LlmRequest {
  /** The bot's price tier; the adapter maps it to an upstream model. */
  tier: ModelTier;
  messages: LlmMessage[];
  maxTokens: number;
  temperature: number;
  /** Aborted when the visitor goes away: the upstream call stops and nothing is charged. */
  signal: AbortSignal;
  /**
   * The material the messages were built from, for a model that answers by retrieval
   * (the offline demo model); a real model reads the messages only.
   */
  grounding: Grounding;
  /** The bot's actions the model may call for this message (docs/product.md#actions); absent: none. */
  tools?: LlmTools;
}

/** An action as the model sees it: its name, what it does, and a JSON Schema of its parameters. */
export interface LlmTool {
  name: string;
  description: string;
  /** A JSON Schema of type object (actions/: string, number, integer, boolean and enum properties). */
  parameters: Record<string, unknown>;
}

/** One call the model asked for: the arguments as it wrote them (JSON text, not yet checked). */
export interface LlmToolCall {
  name: string;
  arguments: string;
}

/**
 * What a call gave back, for the model to answer from: the action's filtered answer, or a sentence
 * the visitor may be told (the action failed, needs a signed-in visitor, got invalid parameters).
 */
export type LlmToolResult = { ok: true; data: unknown } | { ok: false; error: string };

/**
 * The actions of one message. The engine checks and runs each call (the schema, the visitor's
 * right to it, the SSRF guard) and never rejects: a failure comes back as `{ok: false}`. After
 * `maxCalls` calls in all, the model is asked to answer without calling any more.
 */
export interface LlmTools {
  list: LlmTool[];
  maxCalls: number;
  call(call: LlmToolCall): Promise<LlmToolResult>;
}

/**
 * What a retrieval model may quote. The owner's prompt is deliberately absent: owners put
 * instructions (and sometimes things they should not) there, and a model that quotes it verbatim
 * hands it to any visitor who asks. `publicText` is text the product itself publishes (the house
 * demo bot's facts about Botsmith), never an owner's.
 */
export interface Grounding {
  botName: string;
  passages: Passage[];
  question: string;
  publicText?: string;
}

export interface LlmUsage {
  promptTokens: number;
  completionTokens: number;
  /** True when the model reported no usage and the counts are local estimates. */
  estimated: boolean;
}

export interface LlmResult {
  text: string;
  usage: LlmUsage;
  /** The model actually called (recorded on the usage row). */
  upstreamModel: string;
  /**
   * For a model that answers from one passage (the offline demo model): the index in
   * `grounding.passages` of the passage it quoted, or null when it quoted none. Absent for a model
   * that read all the passages it was given.
   */
  quotedPassage?: number | null;
}

export type LlmErrorCode = 'UPSTREAM_FAILED' | 'UPSTREAM_TIMEOUT' | 'ABORTED';

/** Every adapter failure, classified: the chat engine answers 502/504 and charges nothing. */
export class LlmError extends Error {
  constructor(
    readonly code: LlmErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'LlmError';
  }
}

export interface LlmPort {
  /** 'openai' or 'offline-demo', for logs and the health of the setup. */
  readonly name: string;
  /** The upstream model a tier is answered by. */
  upstreamModelFor(tier: ModelTier): string;
  /**
   * Streams one answer: `onToken` gets each piece of text as it arrives; resolves with the whole
   * text and the token usage (of every round, when the model called actions in between). Rejects
   * with LlmError (ABORTED when the signal fired).
   */
  complete(request: LlmRequest, onToken: (text: string) => void): Promise<LlmResult>;
}

/** A rough token count (about four characters per token) for models that report none. */
export function estimateTokens(text: string): number {
  return text.length === 0 ? 0 : Math.ceil(text.length / 4);
}
