import { InitialSchema1763769600000 } from './1763769600000-initial-schema.js';
import { Billing1795305972000 } from './1795305972000-billing.js';
import { ChatReservations1795305977000 } from './1795305977000-chat-reservations.js';
import { SystemAccountAndDemoBot1795305978000 } from './1795305978000-system-account-and-demo-bot.js';
import { UsageReadIndexes1795306042000 } from './1795306042000-usage-read-indexes.js';
import { SessionsOwnerIndex1795306470000 } from './1795306470000-sessions-owner-index.js';

/** Migrations in the order they run. Listed by hand so the ESM build needs no glob loading. */
export const MIGRATIONS = [
  InitialSchema1763769600000,
  Billing1795305972000,
  ChatReservations1795305977000,
  SystemAccountAndDemoBot1795305978000,
  UsageReadIndexes1795306042000,
  SessionsOwnerIndex1795306470000,
];
