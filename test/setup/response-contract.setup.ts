import { takeContractViolations } from '../helpers/response-contract';

// After every test: each response the test's apps produced matched the OpenAPI document's
// schema for its route and status (test/helpers/response-contract.ts). A mismatch fails the
// test that produced it, naming the request, the status and what did not match.

afterEach(() => {
  const violations = takeContractViolations();
  if (violations.length === 0) return;
  const lines = violations.map((v) => `  ${v.request} → ${v.status} (route ${v.route}): ${v.problem}`);
  throw new Error(`responses broke the OpenAPI contract (src/api/**/*.openapi.ts):\n${lines.join('\n')}`);
});
