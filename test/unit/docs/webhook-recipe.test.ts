import { readFileSync } from 'node:fs';
import path from 'node:path';

// The webhook tests verify signatures with the function docs/webhooks.md gives a customer (the
// README points there); this keeps the two copies one text, so the tested function is the published one.

const ROOT = path.resolve(__dirname, '..', '..', '..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

function verifyFunction(text: string, where: string): string {
  const start = text.indexOf('export function verifyDubbingSignature(');
  if (start < 0) throw new Error(`${where} has no verifyDubbingSignature`);
  const end = text.indexOf('\n}\n', start);
  return text.slice(start, end + 2);
}

it('docs/webhooks.md and the test receiver verify signatures with the same function', () => {
  const tested = verifyFunction(read('test/helpers/webhook-receiver.ts'), 'the receiver');
  expect(verifyFunction(read('docs/webhooks.md'), 'docs/webhooks.md')).toBe(tested);
  expect(read('README.md')).toContain('docs/webhooks.md#verifying-the-signature');
  expect(tested).toContain('timingSafeEqual');
});
