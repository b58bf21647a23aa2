import OpenAI from 'openai';
import { type ModelTier, UPSTREAM_MODELS } from '../../../common/constants.js';
import { estimateTokens, LlmError, type LlmPort, type LlmRequest, type LlmResult } from './llm.port.js';
import { describeError } from '../../../common/error-description.js';

export interface OpenAiAdapterOptions {
  apiKey: string;
  /** Any OpenAI-compatible server (Ollama, vLLM, llama.cpp): e.g. http://localhost:11434/v1. */
  baseUrl?: string;
  /** Tier -> upstream model id, overriding the catalogue's defaults (OPENAI_MODEL_MAP). */
  modelMap: Record<string, string>;
  /** Per attempt until the headers arrive (the SDK's timeout), and the longest silence mid-stream. */
  timeoutMs: number;
  /** The SDK retries connection errors, 408, 409, 429 and 5xx before the stream starts. */
  maxRetries: number;
}

const OPENAI_API = 'https://api.openai.com/v1';

/**
 * The production model: the official `openai` SDK (6.x, the last major that runs on Node 20),
 * Chat Completions streaming — the common denominator of OpenAI-compatible servers — with
 * `stream_options.include_usage`, so the last chunk reports the tokens actually used.
 *
 * Retries are the SDK's own and happen only before the first byte of an answer (a retried
 * request cannot duplicate tokens the visitor already saw). A stream that goes silent for
 * `timeoutMs` is aborted here, since the SDK's timeout stops counting once headers arrive.
 */
export class OpenAiLlmAdapter implements LlmPort {
  readonly name = 'openai';
  private readonly client: OpenAI;
  /** OpenAI's own API wants max_completion_tokens; compatible servers know max_tokens. */
  private readonly maxTokensField: 'max_completion_tokens' | 'max_tokens';

  constructor(private readonly options: OpenAiAdapterOptions) {
    this.client = new OpenAI({
      apiKey: options.apiKey,
      // Explicit, so a stray OPENAI_BASE_URL in the process environment never decides it.
      baseURL: options.baseUrl ?? OPENAI_API,
      timeout: options.timeoutMs,
      maxRetries: options.maxRetries,
    });
    this.maxTokensField = options.baseUrl ? 'max_tokens' : 'max_completion_tokens';
  }

  upstreamModelFor(tier: ModelTier): string {
    return this.options.modelMap[tier] ?? UPSTREAM_MODELS[tier];
  }

  async complete(request: LlmRequest, onToken: (text: string) => void): Promise<LlmResult> {
    const model = this.upstreamModelFor(request.tier);
    const controller = new AbortController();
    const onVisitorGone = (): void => controller.abort();
    if (request.signal.aborted) throw new LlmError('ABORTED', 'The visitor left before the answer.');
    request.signal.addEventListener('abort', onVisitorGone, { once: true });

    let silenceTimer: NodeJS.Timeout | undefined;
    let wentSilent = false;
    const watchSilence = (): void => {
      clearTimeout(silenceTimer);
      silenceTimer = setTimeout(() => {
        wentSilent = true;
        controller.abort();
      }, this.options.timeoutMs);
    };

    let text = '';
    let answeredBy = model;
    let finished = false;
    let usage: OpenAI.CompletionUsage | undefined;
    const started = Date.now();
    try {
      const stream = await this.client.chat.completions.create(
        {
          model,
          messages: request.messages,
          temperature: request.temperature,
          [this.maxTokensField]: request.maxTokens,
          stream: true,
          stream_options: { include_usage: true },
        },
        { signal: controller.signal },
      );
      watchSilence();
      for await (const chunk of stream) {
        watchSilence();
        if (typeof chunk.model === 'string' && chunk.model) answeredBy = chunk.model.slice(0, 100);
        if (chunk.usage) usage = chunk.usage;
        const choice = chunk.choices[0];
        if (!choice) continue;
        const piece = choice.delta?.content;
        if (piece) {
          text += piece;
          onToken(piece);
        }
        if (choice.finish_reason) finished = true;
      }
    } catch (error) {
      throw this.classify(error, request.signal.aborted, wentSilent, Date.now() - started);
    } finally {
      clearTimeout(silenceTimer);
      request.signal.removeEventListener('abort', onVisitorGone);
    }

    // The SDK ends a stream quietly when its signal fires: say why it ended.
    if (request.signal.aborted) throw new LlmError('ABORTED', 'The visitor left before the answer.');
    if (wentSilent) throw new LlmError('UPSTREAM_TIMEOUT', 'The model went silent in the middle of its answer.');
    if (!finished) throw new LlmError('UPSTREAM_FAILED', 'The model stopped before finishing its answer.');
    if (text.trim() === '') throw new LlmError('UPSTREAM_FAILED', 'The model returned an empty answer.');
    return {
      text,
      upstreamModel: answeredBy,
      usage: usage
        ? { promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens, estimated: false }
        : {
            promptTokens: estimateTokens(request.messages.map((m) => m.content).join('\n')),
            completionTokens: estimateTokens(text),
            estimated: true,
          },
    };
  }

  private classify(error: unknown, visitorGone: boolean, wentSilent: boolean, elapsedMs: number): LlmError {
    if (visitorGone) return new LlmError('ABORTED', 'The visitor left before the answer.', { cause: error });
    // A connection error after at least the timeout is the SDK's timeout, whichever realm its
    // AbortError came from (the SDK only recognises its own realm's).
    const timedOut =
      error instanceof OpenAI.APIConnectionTimeoutError ||
      (error instanceof OpenAI.APIConnectionError && elapsedMs >= this.options.timeoutMs);
    if (wentSilent || timedOut) {
      return new LlmError('UPSTREAM_TIMEOUT', 'The model took too long to answer.', { cause: error });
    }
    if (error instanceof OpenAI.APIError && typeof error.status === 'number') {
      return new LlmError('UPSTREAM_FAILED', `The model service answered ${error.status}: ${error.message}`, {
        cause: error,
      });
    }
    const detail = describeError(error);
    return new LlmError('UPSTREAM_FAILED', `The model service could not be reached or broke off: ${detail}`, {
      cause: error,
    });
  }
}
