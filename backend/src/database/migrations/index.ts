import { InitialSchema1763769600000 } from './1763769600000-initial-schema.js';
import { Billing1795305972000 } from './1795305972000-billing.js';
import { ChatReservations1795305977000 } from './1795305977000-chat-reservations.js';
import { SystemAccountAndDemoBot1795305978000 } from './1795305978000-system-account-and-demo-bot.js';
import { UsageReadIndexes1795306042000 } from './1795306042000-usage-read-indexes.js';
import { SessionsOwnerIndex1795306470000 } from './1795306470000-sessions-owner-index.js';
import { PendingSignups1796100000000 } from './1796100000000-pending-signups.js';
import { BudgetAlerts1796300000000 } from './1796300000000-budget-alerts.js';
import { KnowledgeSources1796700000000 } from './1796700000000-knowledge-sources.js';
import { KnowledgeWebsitePages1796700000001 } from './1796700000001-knowledge-website-pages.js';
import { KnowledgeRefresh1797000000000 } from './1797000000000-knowledge-refresh.js';
import { PassageEmbeddings1797100000000 } from './1797100000000-passage-embeddings.js';
import { SearchVectorInline1797500000000 } from './1797500000000-search-vector-inline.js';
import { ConversationsInbox1797600000000 } from './1797600000000-conversations-inbox.js';
import { ConversationRetention1797700000000 } from './1797700000000-conversation-retention.js';
import { StarterQuestions1797800000000 } from './1797800000000-starter-questions.js';
import { ConversationHandoff1797900000000 } from './1797900000000-conversation-handoff.js';
import { Webhooks1798200000000 } from './1798200000000-webhooks.js';
import { OwnerReplies1798300000000 } from './1798300000000-owner-replies.js';
import { WidgetLanguage1798350000000 } from './1798350000000-widget-language.js';
import { VisitorIdentity1798450000000 } from './1798450000000-visitor-identity.js';
import { Leads1798500000000 } from './1798500000000-leads.js';
import { MailConsent1798630000000 } from './1798630000000-mail-consent.js';
import { WebhookFairness1798620000000 } from './1798620000000-webhook-fairness.js';
import { DailyQuotas1798640000000 } from './1798640000000-daily-quotas.js';
import { PageUrlLinks1798650000000 } from './1798650000000-page-url-links.js';
import { WrittenAnswerText1798730000000 } from './1798730000000-written-answer-text.js';
import { InboxWaiting1798750000000 } from './1798750000000-inbox-waiting.js';
import { ShowModelLabel1798780000000 } from './1798780000000-show-model-label.js';
import { NotChargedReason1798790000000 } from './1798790000000-not-charged-reason.js';
import { ConversationOutcomes1798870000000 } from './1798870000000-conversation-outcomes.js';
import { VerifiedVisitors1798900000000 } from './1798900000000-verified-visitors.js';
import { MonthlyReport1798920000000 } from './1798920000000-monthly-report.js';
import { Actions1798940000000 } from './1798940000000-actions.js';
import { AnalyticsHours1798960000000 } from './1798960000000-analytics-hours.js';
import { ActionCalls1798970000000 } from './1798970000000-action-calls.js';
import { AnalyticsQuarters1798990000000 } from './1798990000000-analytics-quarters.js';
import { ActionVisitorMatch1799000000000 } from './1799000000000-action-visitor-match.js';

/** Migrations in the order they run. Listed by hand so the ESM build needs no glob loading. */
export const MIGRATIONS = [
  InitialSchema1763769600000,
  Billing1795305972000,
  ChatReservations1795305977000,
  SystemAccountAndDemoBot1795305978000,
  UsageReadIndexes1795306042000,
  SessionsOwnerIndex1795306470000,
  PendingSignups1796100000000,
  BudgetAlerts1796300000000,
  KnowledgeSources1796700000000,
  KnowledgeWebsitePages1796700000001,
  KnowledgeRefresh1797000000000,
  PassageEmbeddings1797100000000,
  SearchVectorInline1797500000000,
  ConversationsInbox1797600000000,
  ConversationRetention1797700000000,
  StarterQuestions1797800000000,
  ConversationHandoff1797900000000,
  Webhooks1798200000000,
  OwnerReplies1798300000000,
  WidgetLanguage1798350000000,
  VisitorIdentity1798450000000,
  Leads1798500000000,
  WebhookFairness1798620000000,
  MailConsent1798630000000,
  DailyQuotas1798640000000,
  PageUrlLinks1798650000000,
  WrittenAnswerText1798730000000,
  InboxWaiting1798750000000,
  ShowModelLabel1798780000000,
  NotChargedReason1798790000000,
  ConversationOutcomes1798870000000,
  VerifiedVisitors1798900000000,
  MonthlyReport1798920000000,
  Actions1798940000000,
  AnalyticsHours1798960000000,
  ActionCalls1798970000000,
  AnalyticsQuarters1798990000000,
  ActionVisitorMatch1799000000000,
];
