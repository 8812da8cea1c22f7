/**
 * The timing cases' statistics (D193) against published values: the Mann–Whitney U test's normal
 * approximation as SciPy (`scipy.stats.mannwhitneyu(x, y, method="asymptotic")`, 1.17) and R
 * (`wilcox.test(x, y, exact = FALSE)`) compute it, ties and continuity corrected; the
 * Hodges–Lehmann shift beside it.
 */
import { describe, expect, it } from 'vitest';
import { erfc, hodgesLehmann, mannWhitneyU, median } from './statistics';

describe('the statistics of the timing cases (D193)', () => {
  it('erfc matches tabulated values, tails included', () => {
    // Abramowitz and Stegun, table 7.1, and erfc(5) = 1.5375e-12.
    expect(erfc(0)).toBeCloseTo(1, 7);
    expect(erfc(0.5)).toBeCloseTo(0.4795001222, 6);
    expect(erfc(1)).toBeCloseTo(0.1572992071, 6);
    expect(erfc(2)).toBeCloseTo(0.004677734981, 8);
    expect(erfc(-1)).toBeCloseTo(1.8427007929, 6);
    expect(erfc(5) / 1.5374597944e-12).toBeCloseTo(1, 5);
  });

  it('the textbook example: ages at diagnosis of five men and four women, U = 17, p = 0.1113', () => {
    // SciPy's documented example of mannwhitneyu; the exact p is 0.1111, the asymptotic 0.11135.
    const men = [19, 22, 16, 29, 24];
    const women = [20, 11, 17, 12];
    const result = mannWhitneyU(men, women);
    expect(result.u).toBe(17);
    expect(result.p).toBeCloseTo(0.11134688653314041, 6);
    // U of the other sample is n₁n₂ − U; the two-sided p is the same.
    const swapped = mannWhitneyU(women, men);
    expect(swapped.u).toBe(3);
    expect(swapped.p).toBeCloseTo(result.p, 12);
  });

  it('corrects for ties (midranks, and the variance of tied groups)', () => {
    const result = mannWhitneyU([1, 2, 2, 3, 3, 3, 4, 5], [3, 4, 4, 5, 5, 6, 7, 7, 8]);
    expect(result.u).toBe(7.5);
    // SciPy: 0.006373133838085873 (0.00549 with no continuity correction).
    expect(result.p).toBeCloseTo(0.006373133838085873, 6);
  });

  it('keeps its digits far in the tail: 200 against 200, heavily tied, p = 4.7e-13', () => {
    const x = Array.from({ length: 200 }, (_, i) => Math.round(100 + ((i * 7) % 13)) / 10);
    const y = Array.from({ length: 200 }, (_, i) => Math.round(103 + ((i * 11) % 13)) / 10);
    const result = mannWhitneyU(x, y);
    expect(result.u).toBe(11657.5);
    expect(result.p / 4.728225643740978e-13).toBeCloseTo(1, 4);
  });

  it('finds nothing between a sample and itself, or a shuffle of it', () => {
    const x = Array.from({ length: 200 }, (_, i) => (i * 37) % 101);
    expect(mannWhitneyU(x, x).p).toBe(1);
    expect(mannWhitneyU(x, [...x].reverse()).p).toBe(1);
    expect(mannWhitneyU([5, 5, 5], [5, 5, 5])).toEqual({ u: 4.5, z: 0, p: 1 });
  });

  it('the Hodges–Lehmann shift is the median of every difference', () => {
    // The 20 differences of the textbook example: their median is 7 (the 10th and 11th are 7).
    expect(hodgesLehmann([19, 22, 16, 29, 24], [20, 11, 17, 12])).toBe(7);
    expect(hodgesLehmann([20, 11, 17, 12], [19, 22, 16, 29, 24])).toBe(-7);
    expect(hodgesLehmann([1, 2, 2, 3, 3, 3, 4, 5], [3, 4, 4, 5, 5, 6, 7, 7, 8])).toBe(-2.5);
    // A sample against itself moved by 0.4: the shift is the move, whatever the spread.
    const x = Array.from({ length: 200 }, (_, i) => ((i * 37) % 101) / 10);
    expect(
      hodgesLehmann(
        x.map((v) => v + 0.4),
        x,
      ),
    ).toBeCloseTo(0.4, 10);
  });

  it('the median of an odd and an even count', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(() => median([])).toThrow();
  });
});
