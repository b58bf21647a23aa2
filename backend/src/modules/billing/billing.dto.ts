import type { EmptyRequest } from '@botsmith/contract';
/**
 * The billing calls take no input: `{}` (or no body) only. An empty class still lets the global
 * ValidationPipe (whitelist + forbidNonWhitelisted) reject any field sent with them.
 */
export class EmptyBody implements EmptyRequest {}
