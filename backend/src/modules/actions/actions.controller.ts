import type { ActionResponse, ActionsResponse, ActionStatsResponse, ActionTestResponse } from '@botsmith/contract';
import { Body, Controller, Delete, Get, HttpCode, Post, Put, UseGuards } from '@nestjs/common';
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
import { ActionTestDto, SaveActionDto } from './actions.dto.js';
import { ActionsService } from './actions.service.js';

const BOT_NOT_FOUND = { 404: ['BOT_NOT_FOUND'] } as const;
const ACTION_NOT_FOUND = { 404: ['BOT_NOT_FOUND', 'ACTION_NOT_FOUND'] } as const;
const INVALID = { 400: ['ACTION_INVALID'] } as const;

@ApiTags('Actions')
@ApiCookieAuth(SECURITY.session)
@Controller('bots/:id/actions')
@UseGuards(BillingStateGuard)
export class ActionsController {
  constructor(private readonly actions: ActionsService) {}

  @Get()
  @ApiOperation({ summary: "The bot's actions, header values masked" })
  @ApiAnswer(200, 'The actions, oldest first.')
  @ApiErrors(GATED, ID_IN_PATH, BOT_NOT_FOUND)
  async list(@CurrentUser() user: SessionUser, @IdParam('id') botId: number): Promise<ActionsResponse> {
    return { actions: await this.actions.list(user.id, botId) };
  }

  @Get('stats')
  @ApiOperation({ summary: "Each action's calls, failures and p95 time over the last 30 days" })
  @ApiAnswer(200, 'One entry per action, in the list order.')
  @ApiErrors(GATED, ID_IN_PATH, BOT_NOT_FOUND)
  stats(@CurrentUser() user: SessionUser, @IdParam('id') botId: number): Promise<ActionStatsResponse> {
    return this.actions.stats(user.id, botId);
  }

  @Post()
  @ApiOperation({ summary: 'Adds an HTTP action (at most 10 per bot); header values are stored encrypted' })
  @ApiAnswer(201, 'The action.')
  @ApiErrors(GATED, SAME_SITE, ID_IN_PATH, JSON_BODY, BOT_NOT_FOUND, INVALID, {
    409: ['ACTION_LIMIT_REACHED', 'ACTION_NAME_TAKEN'],
  })
  async create(
    @CurrentUser() user: SessionUser,
    @IdParam('id') botId: number,
    @Body() body: SaveActionDto,
  ): Promise<ActionResponse> {
    return { action: await this.actions.create(user.id, botId, body) };
  }

  @Put(':actionId')
  @ApiOperation({ summary: 'Replaces an action; a header given without a value keeps its stored value' })
  @ApiAnswer(200, 'The action.')
  @ApiErrors(GATED, SAME_SITE, ID_IN_PATH, JSON_BODY, ACTION_NOT_FOUND, INVALID, { 409: ['ACTION_NAME_TAKEN'] })
  async update(
    @CurrentUser() user: SessionUser,
    @IdParam('id') botId: number,
    @IdParam('actionId') actionId: number,
    @Body() body: SaveActionDto,
  ): Promise<ActionResponse> {
    return { action: await this.actions.update(user.id, botId, actionId, body) };
  }

  @Delete(':actionId')
  @ApiOperation({ summary: 'Deletes an action' })
  @ApiAnswer(204, 'Deleted.')
  @ApiErrors(GATED, SAME_SITE, ID_IN_PATH, ACTION_NOT_FOUND)
  @HttpCode(204)
  async delete(
    @CurrentUser() user: SessionUser,
    @IdParam('id') botId: number,
    @IdParam('actionId') actionId: number,
  ): Promise<void> {
    await this.actions.delete(user.id, botId, actionId);
  }

  @Post(':actionId/test')
  @ApiOperation({
    summary:
      'Runs the action once; answers the request made (secrets masked), the status, the time and the filtered answer',
  })
  @ApiAnswer(200, 'How the run went (an unreachable or failing API is an error in the result, not an HTTP error).')
  @ApiErrors(GATED, SAME_SITE, ID_IN_PATH, JSON_BODY, ACTION_NOT_FOUND, INVALID, RATE_LIMITED)
  @HttpCode(200)
  async test(
    @CurrentUser() user: SessionUser,
    @IdParam('id') botId: number,
    @IdParam('actionId') actionId: number,
    @Body() body: ActionTestDto,
  ): Promise<ActionTestResponse> {
    return { result: await this.actions.test(user.id, botId, actionId, body) };
  }
}
