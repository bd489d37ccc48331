// What a failed call throws: the API's error body (docs/design.md#errors), with the HTTP status. A network
// failure that outlived the retries is thrown as it came (a TypeError from fetch), not as this.

export interface ApiErrorBody {
  type: string;
  code: string;
  message: string;
  param?: string;
  request_id?: string;
}

export class DubbingApiError extends Error {
  readonly status: number;
  readonly type: string;
  readonly code: string;
  readonly param: string | undefined;
  readonly requestId: string | undefined;

  constructor(status: number, body: ApiErrorBody) {
    super(body.message);
    this.name = 'DubbingApiError';
    this.status = status;
    this.type = body.type;
    this.code = body.code;
    this.param = body.param;
    this.requestId = body.request_id;
  }

  /** `request_id`, as the API spells it, for callers that log the raw fields. */
  get request_id(): string | undefined {
    return this.requestId;
  }

  /** Builds the error from any non-2xx answer, also one that is not the API's JSON (a proxy's HTML, an object store's XML). */
  static async fromResponse(response: Response): Promise<DubbingApiError> {
    const text = await response.text().catch(() => '');
    const requestId = response.headers.get('x-request-id') ?? undefined;
    try {
      const parsed = JSON.parse(text) as { error?: Partial<ApiErrorBody> };
      if (parsed.error && typeof parsed.error.message === 'string') {
        return new DubbingApiError(response.status, {
          type: parsed.error.type ?? 'api_error',
          code: parsed.error.code ?? 'unknown',
          message: parsed.error.message,
          param: parsed.error.param,
          request_id: parsed.error.request_id ?? requestId,
        });
      }
    } catch {
      // not JSON: described below from the status line
    }
    const snippet = text.replace(/\s+/g, ' ').trim().slice(0, 200);
    return new DubbingApiError(response.status, {
      type: response.status >= 500 ? 'api_error' : 'invalid_request_error',
      code: `http_${response.status}`,
      message: `HTTP ${response.status} ${response.statusText}${snippet ? `: ${snippet}` : ''}`,
      request_id: requestId,
    });
  }
}
