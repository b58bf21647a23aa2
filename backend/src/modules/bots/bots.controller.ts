import { Body, Controller, Delete, Get, HttpCode, Post, Put, UseGuards } from '@nestjs/common';
import { BillingStateGuard } from '../../common/billing-state.guard.js';
import { CurrentUser, type SessionUser } from '../../common/current-user.decorator.js';
import { IdParam } from '../../common/parse-id.pipe.js';
import { CreateBotDto, UpdateBotDto, type BotResponse } from './bots.dto.js';
import { BotsService } from './bots.service.js';

@Controller('bots')
@UseGuards(BillingStateGuard)
export class BotsController {
  constructor(private readonly bots: BotsService) {}

  @Get()
  async list(@CurrentUser() user: SessionUser): Promise<{ bots: BotResponse[] }> {
    return { bots: await this.bots.list(user.id) };
  }

  @Post()
  async create(
    @CurrentUser() user: SessionUser,
    @Body() body: CreateBotDto,
  ): Promise<{ bot: { id: number; name: string } }> {
    return { bot: await this.bots.create(user.id, body.botName) };
  }

  @Get(':id')
  async get(@CurrentUser() user: SessionUser, @IdParam('id') id: number): Promise<{ bot: BotResponse }> {
    return { bot: await this.bots.get(user.id, id) };
  }

  @Put(':id')
  async update(
    @CurrentUser() user: SessionUser,
    @IdParam('id') id: number,
    @Body() body: UpdateBotDto,
  ): Promise<{ bot: BotResponse }> {
    return { bot: await this.bots.update(user.id, id, body) };
  }

  @Delete(':id')
  @HttpCode(200)
  async delete(@CurrentUser() user: SessionUser, @IdParam('id') id: number): Promise<{ message: string }> {
    await this.bots.delete(user.id, id);
    return { message: 'Bot successfully deleted!' };
  }
}
