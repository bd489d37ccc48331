import { isDatabaseUnavailable } from '../../../src/db/database-unavailable';

// What the API answers 503 for (the database gone) versus 500 (anything else): a query that is
// wrong must never be dressed up as an outage, and an outage never as an internal error.

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

it('recognizes a database that is down, restarting or unreachable', () => {
  expect(isDatabaseUnavailable(withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'))).toBe(true);
  expect(isDatabaseUnavailable(withCode('57P01', 'terminating connection due to administrator command'))).toBe(true);
  expect(isDatabaseUnavailable(withCode('57P03', 'the database system is starting up'))).toBe(true);
  expect(isDatabaseUnavailable(withCode('08006'))).toBe(true);
  expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
  expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
  expect(isDatabaseUnavailable(new AggregateError([withCode('ECONNREFUSED')], 'all addresses refused'))).toBe(true);
  // An error from another realm (Node's own, under a sandbox) is recognized by its shape.
  expect(isDatabaseUnavailable({ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' })).toBe(true);
});

it('leaves every other failure alone', () => {
  expect(isDatabaseUnavailable(withCode('23505', 'duplicate key value violates unique constraint'))).toBe(false);
  expect(isDatabaseUnavailable(withCode('42P01', 'relation "x" does not exist'))).toBe(false);
  expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
  expect(isDatabaseUnavailable(undefined)).toBe(false);
  expect(isDatabaseUnavailable('ECONNREFUSED')).toBe(false);
});
