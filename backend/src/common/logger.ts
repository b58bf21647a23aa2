import { ConsoleLogger, type LogLevel } from '@nestjs/common';
import type { AppConfig } from '../config/config.js';

const LEVELS: Record<string, LogLevel[]> = {
  silent: [],
  fatal: ['fatal'],
  error: ['fatal', 'error'],
  warn: ['fatal', 'error', 'warn'],
  info: ['fatal', 'error', 'warn', 'log'],
  debug: ['fatal', 'error', 'warn', 'log', 'debug'],
  trace: ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'],
};

/** The application's logger: JSON lines in production, LOG_LEVEL's levels. */
export function createLogger(config: AppConfig): ConsoleLogger {
  return new ConsoleLogger('Botsmith', {
    json: config.env === 'production',
    colors: config.env !== 'production' && process.stdout.isTTY,
    logLevels: LEVELS[config.logLevel] ?? LEVELS.info,
  });
}
