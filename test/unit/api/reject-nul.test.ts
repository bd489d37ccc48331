import { ApiError } from '../../../src/api/api-error';
import { rejectNulCharacters } from '../../../src/api/middleware/reject-nul';

function refusal(value: unknown): ApiError | undefined {
  try {
    rejectNulCharacters(value, 'body');
    return undefined;
  } catch (err) {
    return err as ApiError;
  }
}

describe('rejectNulCharacters', () => {
  it('item 9: names the first string holding U+0000 by its dotted path', () => {
    expect(refusal({ publishing: { title: 'a\u0000' } })).toMatchObject({ status: 400, type: 'invalid_request_error', code: 'invalid_parameter', param: 'publishing.title' });
    expect(refusal({ target_locales: ['es_es', '\u0000'] })?.param).toBe('target_locales[1]');
    expect(refusal({ parts: [{ part_number: 1, etag: 'x\u0000' }] })?.param).toBe('parts[0].etag');
    expect(refusal({ ['k\u0000']: 1 })?.param).toBe('k\u0000');
  });

  it('item 9: lets everything else through, other control characters included', () => {
    expect(refusal({ name: 'tab\there, newline\n, \u0001 and emoji 🎬', n: 0, b: false, nil: null, list: [] })).toBeUndefined();
  });

  it('refuses a lone surrogate (no UTF-8 text can hold it) naming the field; a whole pair is fine', () => {
    expect(refusal({ name: 'broken \ud83c here' })).toMatchObject({
      status: 400,
      code: 'invalid_parameter',
      param: 'name',
      message: 'Invalid name: must be valid Unicode (it holds a lone surrogate).',
    });
    expect(refusal({ publishing: { description: 'tail \udc00' } })?.param).toBe('publishing.description');
    expect(refusal({ name: 'a pair \ud83c\udfac is one character' })).toBeUndefined();
  });
});
