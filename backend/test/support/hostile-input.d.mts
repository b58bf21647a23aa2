import type { Arbitrary } from 'fast-check';

export interface FuzzRoute {
  fields?: string[];
  query?: string[];
  session?: 'owner' | 'none';
  ids?: 'doomed';
}

export interface FuzzContext {
  origin: string;
  ownIds: number[];
  doomedIds: number[];
  otherIds: number[];
  ownerCookie: string;
}

export interface FuzzRequest {
  route: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | Buffer | undefined;
}

export interface FuzzAnswer {
  status: number;
  contentType: string;
  text: string;
}

export const HOSTILE_TEXT: string[];
export const hostileString: Arbitrary<string>;
export function jsonText(fields?: string[]): Arbitrary<string>;
export const FUZZ_ROUTES: Record<string, FuzzRoute>;
export function apiRoutesOf(expressApp: unknown): string[];
export function requestArbitrary(route: string, context: FuzzContext): Arbitrary<FuzzRequest>;
export function sendRequest(base: string, request: FuzzRequest): Promise<FuzzAnswer>;
export function answerProblem(answer: FuzzAnswer): string | null;
export function describeRequest(request: FuzzRequest): string;
