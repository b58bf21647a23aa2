import type { CreateCategoryRequest } from '@botsmith/contract';
export type { CategoryResponse } from '@botsmith/contract';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { CATEGORY_NAME_MAX } from '../../common/constants.js';

export class CreateCategoryDto implements CreateCategoryRequest {
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @MaxLength(CATEGORY_NAME_MAX, { message: `Category name must be at most ${CATEGORY_NAME_MAX} characters.` })
  @IsNotEmpty({ message: 'Category name is required.' })
  @IsString({ message: 'Category name is required.' })
  name!: string;
}
