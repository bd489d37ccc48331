import { counted } from '../../../src/shared/counted';

describe('counted', () => {
  it('puts the noun in the number its count needs', () => {
    expect(counted(0, 'part')).toBe('0 parts');
    expect(counted(1, 'part')).toBe('1 part');
    expect(counted(2, 'part')).toBe('2 parts');
    expect(counted(1, 'copy', 'copies')).toBe('1 copy');
    expect(counted(5, 'copy', 'copies')).toBe('5 copies');
  });
});
