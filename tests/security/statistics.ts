/**
 * The two-sample statistics of the timing cases (D53, D193): whether two samples of response times
 * come from one distribution. Tested against published values in `statistics.test.ts`.
 */

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('The median of no values.');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/**
 * erfc(x) with a fractional error below 1.2e-7 everywhere (Numerical Recipes in C, 2nd ed., 6.2,
 * `erfcc`: a Chebyshev fit), so a tail probability as small as 1e-10 keeps its digits.
 */
export function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 +
                            t *
                              (-1.13520398 +
                                t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

export interface MannWhitneyResult {
  /** U of the first sample: how many of the (x, y) pairs have x above y (a tie counts half). */
  readonly u: number;
  /** The standard normal deviate of U, continuity-corrected (0 when U is within ½ of its mean). */
  readonly z: number;
  /** Two-sided p-value from the normal approximation with the tie correction. */
  readonly p: number;
}

/**
 * The Mann–Whitney U test (Wilcoxon rank-sum), two-sided, by its normal approximation: midranks
 * for ties, the variance corrected for them, and a continuity correction of ½ — what SciPy's
 * `mannwhitneyu(x, y, method="asymptotic")` and R's `wilcox.test(x, y, exact = FALSE)` compute.
 * Good from about 20 values a sample; the timing cases have 200.
 */
export function mannWhitneyU(x: readonly number[], y: readonly number[]): MannWhitneyResult {
  const n1 = x.length;
  const n2 = y.length;
  if (n1 === 0 || n2 === 0) throw new Error('Mann–Whitney needs two non-empty samples.');
  const n = n1 + n2;
  // Both samples in order, each value with whether it came from x.
  const all = [
    ...x.map((value) => [value, 1] as const),
    ...y.map((value) => [value, 0] as const),
  ].sort((a, b) => a[0] - b[0]);
  const values = all.map(([value]) => value);
  let rankSumX = 0;
  // Σ (t³ − t) over the groups of t tied values.
  let ties = 0;
  for (let i = 0; i < n;) {
    let j = i;
    while (j + 1 < n && values[j + 1] === values[i]) j++;
    const t = j - i + 1;
    // Ranks i+1 … j+1 share their mean.
    const rank = (i + j + 2) / 2;
    for (let k = i; k <= j; k++) rankSumX += rank * (all[k] as readonly [number, number])[1];
    ties += t * t * t - t;
    i = j + 1;
  }
  const u = rankSumX - (n1 * (n1 + 1)) / 2;
  const mean = (n1 * n2) / 2;
  const variance = ((n1 * n2) / 12) * (n + 1 - ties / (n * (n - 1)));
  if (variance <= 0) return { u, z: 0, p: 1 };
  const z = Math.max(0, Math.abs(u - mean) - 0.5) / Math.sqrt(variance);
  return { u, z, p: Math.min(1, erfc(z / Math.SQRT2)) };
}

/**
 * The Hodges–Lehmann estimate of how far `x` lies above `y`: the median of every difference
 * x[i] − y[j]. The shift the Mann–Whitney test asks about, and steadier than the difference of the
 * two medians where a sample has two modes (its median can jump from one to the other).
 */
export function hodgesLehmann(x: readonly number[], y: readonly number[]): number {
  const differences = new Float64Array(x.length * y.length);
  let k = 0;
  for (const a of x) for (const b of y) differences[k++] = a - b;
  return median(Array.from(differences));
}
