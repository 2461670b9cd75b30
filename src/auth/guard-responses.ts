/** The JSON error body Kiln answers with, as an inline schema (the served document may lack KilnErrorBody). */
export function errorBodyContent(error: string): Record<string, object> {
  return {
    'application/json': {
      schema: {
        type: 'object',
        properties: { error: { const: error }, message: { type: 'string' } },
        required: ['error', 'message'],
      },
    },
  };
}
