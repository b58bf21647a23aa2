import type { ClientOptions, OpenAI } from 'openai';

let sdk: Promise<typeof OpenAI> | undefined;
let loaded: typeof OpenAI | undefined;

/**
 * A client of the official `openai` SDK, which is imported here, on the adapters' first request,
 * rather than at start: without OPENAI_API_KEY it is never needed, and it costs about 0.1 s of a
 * start (docs/decisions/0016-chat-path-cost.md, "Start-up"). The model and the embeddings share
 * one import, so their first requests never load it twice at once (Jest's ESM loader fails when
 * two imports link the same module graph concurrently).
 */
export async function openAiClient(options: ClientOptions): Promise<OpenAI> {
  sdk ??= import('openai').then((module) => (loaded = module.OpenAI));
  const Client = await sdk;
  return new Client(options);
}

/** The SDK once a client was made, to tell its errors apart; before that, no error is the SDK's. */
export function loadedOpenAi(): typeof OpenAI | undefined {
  return loaded;
}
