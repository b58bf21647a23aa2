import {
  type CreatedWebhookResponse,
  type EnabledWebhookResponse,
  type WebhookDeliveriesResponse,
  type WebhooksResponse,
  type WebhookTestResponse,
} from '@botsmith/contract';
import { Body, Controller, Delete, Get, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiCookieAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, type SessionUser } from '../../common/current-user.decorator.js';
import {
  ApiErrors,
  GATED,
  ID_IN_PATH,
  JSON_BODY,
  RATE_LIMITED,
  SAME_SITE,
} from '../../common/openapi/api-errors.decorator.js';
import { ApiAnswer } from '../../common/openapi/schemas.js';
import { SECURITY } from '../../common/openapi/security.js';
import { IdParam } from '../../common/parse-id.pipe.js';
import { BillingStateGuard } from '../users/billing-state.guard.js';
import { CreateWebhookDto } from './webhooks.dto.js';
import { WebhooksService } from './webhooks.service.js';

const WEBHOOK_NOT_FOUND = { 404: ['WEBHOOK_NOT_FOUND'] } as const;

@ApiTags('Webhooks')
@ApiCookieAuth(SECURITY.session)
@Controller('webhooks')
@UseGuards(BillingStateGuard)
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get()
  @ApiOperation({ summary: "Lists the owner's webhook endpoints, each with its latest delivery" })
  @ApiAnswer(200, 'The endpoints, oldest first.')
  @ApiErrors(GATED)
  async list(@CurrentUser() user: SessionUser): Promise<WebhooksResponse> {
    return { webhooks: await this.webhooks.list(user.id) };
  }

  @Post()
  @ApiOperation({ summary: 'Registers an HTTPS endpoint for events; answers its signing secret, shown this once' })
  @ApiAnswer(201, 'The endpoint and its secret.')
  @ApiErrors(GATED, SAME_SITE, JSON_BODY, {
    400: ['URL_INVALID'],
    409: ['WEBHOOK_LIMIT_REACHED'],
    422: ['URL_NOT_ALLOWED'],
  })
  create(@CurrentUser() user: SessionUser, @Body() body: CreateWebhookDto): Promise<CreatedWebhookResponse> {
    return this.webhooks.create(user.id, body.url, body.events);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Deletes an endpoint and its delivery log; nothing more is sent to it' })
  @ApiAnswer(204, 'Deleted.')
  @ApiErrors(GATED, SAME_SITE, ID_IN_PATH, WEBHOOK_NOT_FOUND)
  @HttpCode(204)
  async delete(@CurrentUser() user: SessionUser, @IdParam('id') id: number): Promise<void> {
    await this.webhooks.delete(user.id, id);
  }

  @Post(':id/test')
  @ApiOperation({ summary: 'Sends a webhook.test event to the endpoint now and answers how it went' })
  @ApiAnswer(200, 'The delivery, after its one attempt.')
  @ApiErrors(GATED, SAME_SITE, ID_IN_PATH, WEBHOOK_NOT_FOUND, RATE_LIMITED)
  @HttpCode(200)
  async test(@CurrentUser() user: SessionUser, @IdParam('id') id: number): Promise<WebhookTestResponse> {
    return { delivery: await this.webhooks.test(user.id, id) };
  }

  @Post(':id/enable')
  @ApiOperation({
    summary: 'Enables an endpoint disabled after failing for 3 days; the deliveries that waited are sent first',
  })
  @ApiAnswer(200, 'The endpoint, enabled.')
  @ApiErrors(GATED, SAME_SITE, ID_IN_PATH, WEBHOOK_NOT_FOUND)
  @HttpCode(200)
  async enable(@CurrentUser() user: SessionUser, @IdParam('id') id: number): Promise<EnabledWebhookResponse> {
    return { webhook: await this.webhooks.enable(user.id, id) };
  }

  @Get(':id/deliveries')
  @ApiOperation({ summary: "The endpoint's delivery log, newest first (at most 50)" })
  @ApiAnswer(200, 'The deliveries.')
  @ApiErrors(GATED, ID_IN_PATH, WEBHOOK_NOT_FOUND)
  async deliveries(@CurrentUser() user: SessionUser, @IdParam('id') id: number): Promise<WebhookDeliveriesResponse> {
    return { deliveries: await this.webhooks.deliveries(user.id, id) };
  }
}
