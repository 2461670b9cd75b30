// Route (c)'s body as a class-validator DTO, for the frameworks whose validation is class-validator
// (NestJS's ValidationPipe, routing-controllers).
import { IsEmail, IsInt, IsNotEmpty, IsString, Min } from 'class-validator';

export class NewUserDto {
  @IsString() @IsNotEmpty() name!: string;
  @IsEmail() email!: string;
  @IsInt() @Min(0) age!: number;
}
