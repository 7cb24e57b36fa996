// Response envelopes: PropertyResponse (SPEC 2.2) and ErrorResponse (SPEC 2.3).
import { z } from './zod.js';
import { PropertyRecord, SaleHistoryRecord, AssessmentHistoryRecord, Suggestion } from './record.js';

export const SuccessStatus = z
  .object({
    code: z.literal(0).openapi({ description: '0 = success' }),
    msg: z.string().openapi({ example: 'SuccessWithResult' }),
    total: z.number().int().openapi({ description: 'Total matching records; may exceed pagesize' }),
    page: z.number().int(),
    pagesize: z.number().int(),
    transactionID: z.string().uuid(),
    credits_remaining: z.number().int().openapi({ description: 'Credit balance after the call' }),
    records_returned: z.number().int().openapi({ description: 'Records returned (and billed) by this call' }),
    truncated_by_credits: z.boolean().openapi({ description: 'True when credits ran out before the page was full' }),
  })
  .openapi('Status');

function propertyResponse<T extends z.ZodTypeAny>(name: string, item: T) {
  return z.object({ property: z.array(item), status: SuccessStatus }).openapi(name);
}

export const PropertyResponse = propertyResponse('PropertyResponse', PropertyRecord);
export type PropertyResponse = z.infer<typeof PropertyResponse>;
export const SaleHistoryResponse = propertyResponse('SaleHistoryResponse', SaleHistoryRecord);
export const AssessmentHistoryResponse = propertyResponse('AssessmentHistoryResponse', AssessmentHistoryRecord);
export const SuggestionResponse = propertyResponse('SuggestionResponse', Suggestion);

export const ErrorResponse = z
  .object({
    property: z.array(z.object({})).max(0).openapi({ description: 'Always empty' }),
    status: z.object({
      code: z.number().int().openapi({ description: 'The HTTP status code', example: 400 }),
      msg: z.string().openapi({ example: "Invalid parameter 'pagesize': must be at most 100" }),
      total: z.number().int(),
      transactionID: z.string().uuid().optional().openapi({ description: 'Same as the X-Request-Id header' }),
    }),
  })
  .openapi('ErrorResponse');
export type ErrorResponse = z.infer<typeof ErrorResponse>;
