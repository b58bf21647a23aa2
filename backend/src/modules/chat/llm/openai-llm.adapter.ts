import type OpenAI from 'openai';
import { loadedOpenAi, openAiClient } from '../../../common/openai-sdk.js';
import { type ModelTier, UPSTREAM_MODELS } from '../../../common/constants.js';
import { estimateTokens, LlmError, type LlmPort, type LlmRequest, type LlmResult, type LlmTools } from './llm.port.js';
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

/** What the model reads back for a call past LlmTools.maxCalls (it asked for several at once). */
const TOO_MANY_CALLS = 'No more actions can run for this message: answer with what you have.';
/** The most text one call's arguments may accrete (an action's parameters are a few short values). */
const MAX_CALL_ARGUMENTS = 16_384;

/** What one streamed request gave: its text, the calls it asked for, whether it finished. */
interface Round {
  text: string;
  toolCalls: Array<{ id: string; name: string; arguments: string }>;
  finished: boolean;
  model?: string;
  usage?: OpenAI.CompletionUsage;
}

/**
 * The production model: the official `openai` SDK (6.x, the last major that runs on Node 20),
 * Chat Completions streaming — the common denominator of OpenAI-compatible servers — with
 * `stream_options.include_usage`, so the last chunk reports the tokens actually used.
 *
 * Retries are the SDK's own and happen only before the first byte of an answer (a retried
 * request cannot duplicate tokens the visitor already saw). With actions (`request.tools`), a round
 * that asks for calls is followed by another with their results, until the model answers or the
 * calls are used up (then `tool_choice: 'none'`); the usage is the sum of the rounds. A stream that goes silent for
 * `timeoutMs` is aborted here, since the SDK's timeout stops counting once headers arrive.
 */
export class OpenAiLlmAdapter implements LlmPort {
  readonly name = 'openai';
  /** Made on the first request, when the SDK is imported (openAiClient). */
  private client?: Promise<OpenAI>;
  /** OpenAI's own API wants max_completion_tokens; compatible servers know max_tokens. */
  private readonly maxTokensField: 'max_completion_tokens' | 'max_tokens';

  constructor(private readonly options: OpenAiAdapterOptions) {
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
    const silence = {
      watch: (): void => {
        clearTimeout(silenceTimer);
        silenceTimer = setTimeout(() => {
          wentSilent = true;
          controller.abort();
        }, this.options.timeoutMs);
      },
      // An action has its own time limit: the model is not silent while one runs.
      pause: (): void => clearTimeout(silenceTimer),
    };

    const messages: OpenAI.ChatCompletionMessageParam[] = request.messages.map((m) => ({ ...m }));
    const tools = request.tools && request.tools.list.length > 0 ? request.tools : undefined;
    let calls = 0;
    let text = '';
    let answeredBy = model;
    let finished: boolean;
    const usage = { promptTokens: 0, completionTokens: 0, reported: true };
    const started = Date.now();
    try {
      for (;;) {
        const mayCall = tools !== undefined && calls < tools.maxCalls;
        // A round after an action starts on a line of its own when text came before it.
        let separator = text === '' ? '' : '\n\n';
        const round = await this.round(
          { model, request, messages, tools, mayCall, signal: controller.signal, silence },
          (piece) => {
            if (separator) {
              text += separator;
              onToken(separator);
              separator = '';
            }
            text += piece;
            onToken(piece);
          },
        );
        if (round.model) answeredBy = round.model;
        if (round.usage) {
          usage.promptTokens += round.usage.prompt_tokens;
          usage.completionTokens += round.usage.completion_tokens;
        } else {
          usage.reported = false;
        }
        finished = round.finished;
        if (!tools || !mayCall || round.toolCalls.length === 0) break;

        messages.push({
          role: 'assistant',
          content: round.text || null,
          tool_calls: round.toolCalls.map((call) => ({
            id: call.id,
            type: 'function' as const,
            function: { name: call.name, arguments: call.arguments },
          })),
        });
        silence.pause();
        for (const call of round.toolCalls) {
          // Every call asked for gets an answer (the API wants one per id); past the bound, a refusal.
          const result =
            calls < tools.maxCalls
              ? await tools.call({ name: call.name, arguments: call.arguments })
              : { ok: false as const, error: TOO_MANY_CALLS };
          calls += 1;
          if (request.signal.aborted) throw new LlmError('ABORTED', 'The visitor left before the answer.');
          messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(result) });
        }
      }
    } catch (error) {
      if (error instanceof LlmError) throw error;
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
      usage: usage.reported
        ? { promptTokens: usage.promptTokens, completionTokens: usage.completionTokens, estimated: false }
        : {
            promptTokens: estimateTokens(messages.map((m) => JSON.stringify(m.content ?? '')).join('\n')),
            completionTokens: estimateTokens(text),
            estimated: true,
          },
    };
  }

  /**
   * One streamed request: its text goes to `onPiece` as it arrives; the calls the model asked for
   * are collected from their fragments (keyed by id when the server gives one, else by index:
   * some OpenAI-compatible servers reuse index 0 for every call of a batch).
   */
  private async round(
    ask: {
      model: string;
      request: LlmRequest;
      messages: OpenAI.ChatCompletionMessageParam[];
      tools: LlmTools | undefined;
      mayCall: boolean;
      signal: AbortSignal;
      silence: { watch(): void };
    },
    onPiece: (text: string) => void,
  ): Promise<Round> {
    const { request, tools } = ask;
    this.client ??= openAiClient(this.options);
    const client = await this.client;
    const stream = await client.chat.completions.create(
      {
        model: ask.model,
        messages: ask.messages,
        temperature: request.temperature,
        [this.maxTokensField]: request.maxTokens,
        stream: true,
        stream_options: { include_usage: true },
        ...(tools && {
          tools: tools.list.map((tool) => ({ type: 'function' as const, function: tool })),
          // Once the calls are used up the model must answer from what it has.
          tool_choice: ask.mayCall ? ('auto' as const) : ('none' as const),
          parallel_tool_calls: false,
        }),
      },
      { signal: ask.signal },
    );
    const round: Round = { text: '', toolCalls: [], finished: false };
    const byIndex = new Map<number, Round['toolCalls'][number]>();
    ask.silence.watch();
    for await (const chunk of stream) {
      ask.silence.watch();
      if (typeof chunk.model === 'string' && chunk.model) round.model = chunk.model.slice(0, 100);
      if (chunk.usage) round.usage = chunk.usage;
      const choice = chunk.choices[0];
      if (!choice) continue;
      const piece = choice.delta?.content;
      if (piece) {
        round.text += piece;
        onPiece(piece);
      }
      for (const fragment of choice.delta?.tool_calls ?? []) {
        let call = fragment.id ? round.toolCalls.find((c) => c.id === fragment.id) : byIndex.get(fragment.index);
        if (!call) {
          call = { id: fragment.id ?? `call_${round.toolCalls.length}`, name: '', arguments: '' };
          round.toolCalls.push(call);
        }
        byIndex.set(fragment.index, call);
        if (fragment.function?.name && !call.name) call.name = fragment.function.name;
        const args = fragment.function?.arguments;
        if (args && call.arguments.length + args.length <= MAX_CALL_ARGUMENTS) call.arguments += args;
      }
      if (choice.finish_reason) round.finished = true;
    }
    return round;
  }

  private classify(error: unknown, visitorGone: boolean, wentSilent: boolean, elapsedMs: number): LlmError {
    if (visitorGone) return new LlmError('ABORTED', 'The visitor left before the answer.', { cause: error });
    // A connection error after at least the timeout is the SDK's timeout, whichever realm its
    // AbortError came from (the SDK only recognises its own realm's).
    const sdk = loadedOpenAi();
    const timedOut =
      sdk !== undefined &&
      (error instanceof sdk.APIConnectionTimeoutError ||
        (error instanceof sdk.APIConnectionError && elapsedMs >= this.options.timeoutMs));
    if (wentSilent || timedOut) {
      return new LlmError('UPSTREAM_TIMEOUT', 'The model took too long to answer.', { cause: error });
    }
    if (sdk !== undefined && error instanceof sdk.APIError && typeof error.status === 'number') {
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
