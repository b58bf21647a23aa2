import type { LlmTool, LlmToolResult } from './llm.port.js';

/**
 * How the offline demo model calls actions (docs/product.md#actions), deterministically, so
 * actions work on the embedded default and in tests: the action whose name and description share
 * the most words with the question, when every required parameter can be taken from the question
 * by its type (a number for an integer or a number, a quoted or code-like token for a string, a
 * listed value for an enum). Nothing found: no call, and the model answers from the sources.
 */
export interface DemoActionCall {
  name: string;
  parameters: Record<string, unknown>;
}

interface PropertySchema {
  type?: string;
  enum?: unknown[];
}

/** Content words, lowercased and crudely stemmed, as `keywords` in the demo model does. */
type Keywords = (text: string) => Set<string>;

export function pickDemoAction(tools: readonly LlmTool[], question: string, keywords: Keywords): DemoActionCall | null {
  const asked = keywords(question);
  let best: { score: number; call: DemoActionCall } | null = null;
  for (const tool of tools) {
    let score = 0;
    for (const word of keywords(`${tool.name.replace(/_/g, ' ')} ${tool.description}`)) if (asked.has(word)) score += 1;
    if (score === 0 || (best && score <= best.score)) continue;
    const parameters = parametersFrom(tool.parameters, question);
    if (parameters) best = { score, call: { name: tool.name, parameters } };
  }
  return best?.call ?? null;
}

/** The parameters the question gives, by the schema's types; null when a required one is missing. */
function parametersFrom(schema: Record<string, unknown>, question: string): Record<string, unknown> | null {
  const properties = (schema.properties ?? {}) as Record<string, PropertySchema>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const numbers = [...question.matchAll(/(?<![\p{L}\d.])-?\d+(?:\.\d+)?(?![\p{L}\d])/gu)].map((m) => m[0]);
  const tokens = [
    ...[...question.matchAll(/["“'‘]([^"”'’]{1,200})["”'’]/g)].map((m) => m[1]),
    ...(question.match(/[\p{L}\d][\p{L}\d_-]*/gu) ?? []).filter((word) => /\d/.test(word)),
  ];
  const result: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    let value: unknown;
    if (Array.isArray(property.enum)) {
      const lower = question.toLowerCase();
      value = property.enum.find((option) => typeof option === 'string' && lower.includes(option.toLowerCase()));
    } else if (property.type === 'integer' || property.type === 'number') {
      const index = numbers.findIndex((n) => property.type === 'number' || !n.includes('.'));
      if (index >= 0) value = Number(numbers.splice(index, 1)[0]);
    } else if (property.type === 'string') {
      value = tokens.shift();
    }
    if (value !== undefined) result[name] = value;
    else if (required.has(name)) return null;
  }
  return result;
}

/** The demo model's sentence from what a call gave: the answer's fields, or the failure's sentence. */
export function demoActionAnswer(result: LlmToolResult): string {
  if (!result.ok) return result.error;
  const facts = describe(result.data, '');
  return facts.length === 0 ? 'That went through.' : `Here is what I found: ${facts.join('; ')}.`;
}

/** An answer field's key as words: '/orders/0/financial_status' (a filtered answer's pointer) → 'orders financial status'. */
function readableKey(key: string): string {
  return key
    .split('/')
    .filter((segment) => segment !== '' && !/^\d+$/.test(segment))
    .join(' ');
}

function describe(value: unknown, path: string): string[] {
  const label = path.replace(/_/g, ' ');
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value.slice(0, 10).flatMap((item) => describe(item, path));
  if (typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>)
      .slice(0, 20)
      .flatMap(([key, inner]) => describe(inner, path ? `${path} ${readableKey(key)}` : readableKey(key)));
  }
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return [label ? `${label}: ${text}` : text];
}
