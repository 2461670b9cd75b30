import { Controller, Post, Req, type KilnRequest } from '@kiln/core';

/** Multipart parts as the handler sees them: name, and for a file its name, declared type and text. */
@Controller('/uploads')
export class UploadsController {
  @Post('/parts')
  async parts(@Req() req: KilnRequest) {
    const form = (await req.parseBody()) as FormData;
    const parts: unknown[] = [];
    for (const [name, value] of form) {
      if (typeof value === 'string') parts.push({ name, field: value });
      else parts.push({ name, file: value.name, type: value.type, text: await value.text() });
    }
    const first = form.get('a');
    return { parts, getType: typeof first === 'string' || first === null ? null : first.type };
  }
}
