import { WEBHOOK_EVENTS, WEBHOOK_LIMITS, type WebhookEventType, type CreateWebhookRequest } from '@botsmith/contract';
import { ArrayMaxSize, ArrayNotEmpty, IsArray, IsIn, IsNotEmpty, IsString, MaxLength } from 'class-validator';

const EVENTS_MESSAGE = `Choose at least one event in "events": ${WEBHOOK_EVENTS.join(', ')}.`;

/** POST /api/webhooks */
export class CreateWebhookDto implements CreateWebhookRequest {
  // class-validator checks the rules bottom up: the type first, then emptiness, then the length.
  @MaxLength(WEBHOOK_LIMITS.urlMaxChars, {
    message: `The address can be at most ${WEBHOOK_LIMITS.urlMaxChars} characters.`,
  })
  @IsNotEmpty({ message: 'Enter the address of your endpoint in "url".' })
  @IsString({ message: 'Enter the address of your endpoint in "url".' })
  url!: string;

  @IsIn(WEBHOOK_EVENTS, { each: true, message: `Each event must be one of: ${WEBHOOK_EVENTS.join(', ')}.` })
  @ArrayMaxSize(WEBHOOK_EVENTS.length * 2, { message: EVENTS_MESSAGE })
  @ArrayNotEmpty({ message: EVENTS_MESSAGE })
  @IsArray({ message: EVENTS_MESSAGE })
  events!: WebhookEventType[];
}
