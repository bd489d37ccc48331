import { stateReader } from '../../../src/api/request-state';

describe('stateReader', () => {
  const quoteOf = stateReader<{ seconds: number }>('quote', 'quoteStep()');

  it('hands over what the middleware set, as set', () => {
    const quote = { seconds: 12 };
    expect(quoteOf({ state: { quote } })).toBe(quote);
  });

  it('throws, naming the middleware, on a route that did not run it', () => {
    expect(() => quoteOf({ state: {} })).toThrow('ctx.state.quote is unset: this route does not run quoteStep() before its handler');
    expect(() => quoteOf({ state: { quote: undefined } })).toThrow(/quoteStep\(\)/);
  });

  it('passes falsy values a middleware may set on purpose', () => {
    const flagOf = stateReader<number>('count', 'countStep()');
    expect(flagOf({ state: { count: 0 } })).toBe(0);
  });
});
