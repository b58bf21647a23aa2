import { ApiCookieAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, GATED, ID_IN_PATH, JSON_BODY, SAME_SITE } from '../../common/openapi/api-errors.decorator.js';
import { ApiAnswer } from '../../common/openapi/schemas.js';
import { SECURITY } from '../../common/openapi/security.js';
import { Body, Controller, Delete, Get, HttpCode, Post, Put, UseGuards } from '@nestjs/common';
import { BillingStateGuard } from '../users/billing-state.guard.js';
import { CurrentUser, type SessionUser } from '../../common/current-user.decorator.js';
import { IdParam } from '../../common/parse-id.pipe.js';
import type { BotIdentityStatus } from '@botsmith/contract';
import { CreateBotDto, UpdateBotDto, type BotResponse } from './bots.dto.js';
import { BotsService } from './bots.service.js';

const NOT_FOUND = { 404: ['BOT_NOT_FOUND'] };

@ApiTags('Bots')
@ApiCookieAuth(SECURITY.session)
@Controller('bots')
@UseGuards(BillingStateGuard)
export class BotsController {
  constructor(private readonly bots: BotsService) {}

  @Get()
  @ApiOperation({ summary: "The owner's bots" })
  @ApiAnswer(200, 'Every field of each bot.')
  @ApiErrors(GATED)
  async list(@CurrentUser() user: SessionUser): Promise<{ bots: BotResponse[] }> {
    return { bots: await this.bots.list(user.id) };
  }

  @Post()
  @ApiOperation({ summary: 'Creates a bot with the default settings' })
  @ApiAnswer(201, 'The new bot.')
  @ApiErrors(GATED, SAME_SITE, JSON_BODY, { 409: ['BOT_LIMIT_REACHED'] })
  async create(
    @CurrentUser() user: SessionUser,
    @Body() body: CreateBotDto,
  ): Promise<{ bot: { id: number; name: string } }> {
    return { bot: await this.bots.create(user.id, body.botName) };
  }

  @Get(':id')
  @ApiOperation({ summary: 'One bot, every field' })
  @ApiAnswer(200, 'The bot.')
  @ApiErrors(GATED, ID_IN_PATH, NOT_FOUND)
  async get(@CurrentUser() user: SessionUser, @IdParam('id') id: number): Promise<{ bot: BotResponse }> {
    return { bot: await this.bots.get(user.id, id) };
  }

  @Put(':id')
  @ApiOperation({ summary: 'Saves any subset of the editable fields' })
  @ApiAnswer(200, 'The saved bot.')
  @ApiErrors(GATED, SAME_SITE, ID_IN_PATH, JSON_BODY, NOT_FOUND)
  async update(
    @CurrentUser() user: SessionUser,
    @IdParam('id') id: number,
    @Body() body: UpdateBotDto,
  ): Promise<{ bot: BotResponse }> {
    return { bot: await this.bots.update(user.id, id, body) };
  }

  @Post(':id/api-key')
  @ApiOperation({ summary: 'Rotates the API key: the old one is refused from that moment' })
  @ApiAnswer(200, 'The new key.')
  @ApiErrors(GATED, SAME_SITE, ID_IN_PATH, NOT_FOUND)
  @HttpCode(200)
  rotateApiKey(@CurrentUser() user: SessionUser, @IdParam('id') id: number): Promise<{ apiKey: string }> {
    return this.bots.rotateApiKey(user.id, id);
  }

  @Get(':id/identity')
  @ApiOperation({ summary: 'Whether the bot has an identity secret, and the identity proofs refused this week' })
  @ApiAnswer(200, 'The status (docs/product.md#verified-visitors).')
  @ApiErrors(GATED, ID_IN_PATH, NOT_FOUND)
  async identity(
    @CurrentUser() user: SessionUser,
    @IdParam('id') id: number,
  ): Promise<{ identity: BotIdentityStatus }> {
    return { identity: await this.bots.identityStatus(user.id, id) };
  }

  @Post(':id/identity-secret')
  @ApiOperation({
    summary:
      'Makes a new identity secret for verified visitors, shown this once; proofs signed with the old one are refused',
  })
  @ApiAnswer(200, 'The new secret (docs/product.md#verified-visitors).')
  @ApiErrors(GATED, SAME_SITE, ID_IN_PATH, NOT_FOUND)
  @HttpCode(200)
  rotateIdentitySecret(
    @CurrentUser() user: SessionUser,
    @IdParam('id') id: number,
  ): Promise<{ identitySecret: string }> {
    return this.bots.rotateIdentitySecret(user.id, id);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Deletes a bot (its sources and files go; its logs and usage stay)' })
  @ApiAnswer(200, 'Deleted.')
  @ApiErrors(GATED, SAME_SITE, ID_IN_PATH, NOT_FOUND)
  @HttpCode(200)
  async delete(@CurrentUser() user: SessionUser, @IdParam('id') id: number): Promise<{ message: string }> {
    await this.bots.delete(user.id, id);
    return { message: 'Bot successfully deleted!' };
  }
}
