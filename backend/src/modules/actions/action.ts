import type { ActionMethod, ActionParametersSchema, ActionVisitorMatch } from '@botsmith/contract';

/** A header as stored: its value sealed (SecretBox), never sent back to anyone. */
export interface StoredHeader {
  name: string;
  sealed: string;
}

/** One row of `bot_actions` (docs/product.md#actions). */
export interface ActionRow {
  id: number;
  botId: number;
  name: string;
  description: string;
  parameters: ActionParametersSchema;
  method: ActionMethod;
  url: string;
  headers: StoredHeader[];
  visitorFields: string[];
  requiresVerifiedVisitor: boolean;
  timeoutMs: number;
  answerFields: string[];
  /** The owner check: the answer must belong to the verified visitor; null: none. */
  visitorMatch: ActionVisitorMatch | null;
  createdAt: Date;
  updatedAt: Date;
}

/** What a create or an update writes. */
export type ActionFields = Omit<ActionRow, 'id' | 'botId' | 'createdAt' | 'updatedAt'>;
