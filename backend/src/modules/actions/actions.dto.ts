import {
  ACTION_LIMITS,
  ACTION_METHODS,
  type ActionHeaderInput,
  type ActionMethod,
  type ActionParametersSchema,
  type ActionTestRequest,
  type ActionTestVisitor,
  type ActionVisitorMatch,
  type SaveActionRequest,
} from '@botsmith/contract';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
} from 'class-validator';

/*
 * The shapes of the action routes. The deep rules (the parameters' schema, the URL template,
 * header names and values, pointers) are the service's (action-definition.ts), which names the
 * exact part it refuses.
 */

/** POST /api/bots/{id}/actions and PUT /api/bots/{id}/actions/{actionId} */
export class SaveActionDto implements SaveActionRequest {
  @MaxLength(ACTION_LIMITS.nameMaxChars, { message: `name can be at most ${ACTION_LIMITS.nameMaxChars} characters` })
  @IsNotEmpty({ message: 'Enter the action\'s name in "name"' })
  @IsString({ message: 'Enter the action\'s name in "name"' })
  name!: string;

  @MaxLength(ACTION_LIMITS.descriptionMaxChars, {
    message: `description can be at most ${ACTION_LIMITS.descriptionMaxChars} characters`,
  })
  @IsNotEmpty({ message: 'Describe what the action does in "description"' })
  @IsString({ message: 'Describe what the action does in "description"' })
  description!: string;

  @IsObject({ message: 'parameters must be a JSON Schema object' })
  parameters!: ActionParametersSchema;

  @IsIn(ACTION_METHODS, { message: `method must be ${ACTION_METHODS.join(' or ')}` })
  method!: ActionMethod;

  @MaxLength(ACTION_LIMITS.urlMaxChars, { message: `url can be at most ${ACTION_LIMITS.urlMaxChars} characters` })
  @IsNotEmpty({ message: 'Enter the URL of your API in "url"' })
  @IsString({ message: 'Enter the URL of your API in "url"' })
  url!: string;

  @IsOptional()
  @ArrayMaxSize(ACTION_LIMITS.headersMax, { message: `An action can have at most ${ACTION_LIMITS.headersMax} headers` })
  @IsArray({ message: 'headers must be a list of {name, value}' })
  headers?: ActionHeaderInput[];

  @IsOptional()
  @IsArray({ message: 'visitorFields must be a list' })
  visitorFields?: string[];

  @IsOptional()
  @IsBoolean({ message: 'requiresVerifiedVisitor must be true or false' })
  requiresVerifiedVisitor?: boolean;

  @IsOptional()
  @IsInt({
    message: `timeoutMs must be a whole number from ${ACTION_LIMITS.timeoutMsMin} to ${ACTION_LIMITS.timeoutMsMax}`,
  })
  timeoutMs?: number;

  @IsArray({ message: 'answerFields must be a list of JSON pointers' })
  answerFields!: string[];

  // Null clears the check; its pointer and field are the service's rules (checkVisitorMatch).
  @IsOptional()
  @IsObject({ message: 'visitorMatch must be {pointer, field} or null' })
  visitorMatch?: ActionVisitorMatch | null;
}

/** POST /api/bots/{id}/actions/{actionId}/test */
export class ActionTestDto implements ActionTestRequest {
  @IsObject({ message: 'parameters must be an object' })
  parameters!: Record<string, unknown>;

  @IsOptional()
  @IsObject({ message: 'visitor must be an object with sub, email, name or attributes' })
  visitor?: ActionTestVisitor;
}
