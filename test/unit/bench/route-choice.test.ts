import { chooseRoute, PIVOT_MARGIN } from '../../../bench/lib/route-choice';

describe('route choice (bench/lib/route-choice.ts)', () => {
  it('takes the best chrF among pivots when there is no direct route', () => {
    const chosen = chooseRoute([
      { route: ['eng-spa', 'es-fr'], chrf: 50.1 },
      { route: ['eng-cat', 'cat-fra'], chrf: 57.4 },
    ]);
    expect(chosen?.route).toEqual(['eng-cat', 'cat-fra']);
  });

  it('keeps the direct route unless a pivot beats it by the margin', () => {
    const direct = { route: ['eng-spa'], chrf: 60.7 };
    expect(chooseRoute([direct, { route: ['eng-cat', 'cat-spa'], chrf: 60.7 + PIVOT_MARGIN - 0.1 }])).toBe(direct);
    expect(chooseRoute([direct, { route: ['eng-cat', 'cat-spa'], chrf: 60.7 + PIVOT_MARGIN + 0.1 }])?.route).toEqual(['eng-cat', 'cat-spa']);
  });

  it('takes the direct route when it is the best outright', () => {
    expect(
      chooseRoute([
        { route: ['eng-spa', 'spa-cat'], chrf: 57.0 },
        { route: ['eng-cat'], chrf: 58.5 },
      ])?.route,
    ).toEqual(['eng-cat']);
  });

  it('chooses nothing from nothing', () => {
    expect(chooseRoute([])).toBeUndefined();
  });
});
