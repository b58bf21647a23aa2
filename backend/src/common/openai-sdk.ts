import type { OpenAI } from 'openai';

let sdk: Promise<typeof OpenAI> | undefined;
let loaded: typeof OpenAI | undefined;

const OPENAI_API = 'https://api.openai.com/v1';

/** Where and how the model's and the embeddings' clients reach OpenAI (from the app's config). */
export interface OpenAiConnection {
  apiKey: string;
  /** OpenAI's own API when unset. */
  baseUrl?: string;
  timeoutMs: number;
  maxRetries: number;
}

/**
 * A client of the official `openai` SDK, which is imported here, on the adapters' first request,
 * rather than at start: without OPENAI_API_KEY it is never needed, and it costs about 0.1 s of a
 * start (docs/decisions/0016-chat-path-cost.md, "Start-up"). The model and the embeddings share
 * one import, so their first requests never load it twice at once (Jest's ESM loader fails when
 * two imports link the same module graph concurrently).
 */
export async function openAiClient(connection: OpenAiConnection): Promise<OpenAI> {
  sdk ??= import('openai').then((module) => (loaded = module.OpenAI));
  const Client = await sdk;
  return new Client({
    apiKey: connection.apiKey,
    // Explicit, so a stray OPENAI_BASE_URL in the process environment never decides it.
    baseURL: connection.baseUrl ?? OPENAI_API,
    timeout: connection.timeoutMs,
    maxRetries: connection.maxRetries,
  });
}

/** The SDK once a client was made, to tell its errors apart; before that, no error is the SDK's. */
export function loadedOpenAi(): typeof OpenAI | undefined {
  return loaded;
}
