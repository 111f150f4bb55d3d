// Eigenvalues of a real symmetric matrix: Householder reduction to tridiagonal form, then the
// implicit QL iteration (the classic tred2/tqli pair, eigenvalues only). O(n^3) for the reduction,
// O(n^2) for the iteration: about 20 ms for n = 256. The spectral count (spectral.ts) reads the
// eigenvalues of one Laplacian per candidate pruning, a few hundred items wide.

/** Eigenvalues of the symmetric n x n matrix `a` (row-major; overwritten), ascending. */
export function symmetricEigenvalues(a: Float64Array, n: number): Float64Array {
  const d = new Float64Array(n);
  const e = new Float64Array(n);
  // Householder: reduce to tridiagonal (d: diagonal, e: sub-diagonal).
  for (let i = n - 1; i > 0; i--) {
    const l = i - 1;
    let h = 0;
    if (l > 0) {
      let scale = 0;
      for (let k = 0; k <= l; k++) scale += Math.abs(a[i * n + k]!);
      if (scale === 0) e[i] = a[i * n + l]!;
      else {
        for (let k = 0; k <= l; k++) {
          a[i * n + k] = a[i * n + k]! / scale;
          h += a[i * n + k]! ** 2;
        }
        let f = a[i * n + l]!;
        const g = f >= 0 ? -Math.sqrt(h) : Math.sqrt(h);
        e[i] = scale * g;
        h -= f * g;
        a[i * n + l] = f - g;
        f = 0;
        for (let j = 0; j <= l; j++) {
          let gg = 0;
          for (let k = 0; k <= j; k++) gg += a[j * n + k]! * a[i * n + k]!;
          for (let k = j + 1; k <= l; k++) gg += a[k * n + j]! * a[i * n + k]!;
          e[j] = gg / h;
          f += e[j]! * a[i * n + j]!;
        }
        const hh = f / (h + h);
        for (let j = 0; j <= l; j++) {
          const fj = a[i * n + j]!;
          const gj = e[j]! - hh * fj;
          e[j] = gj;
          for (let k = 0; k <= j; k++) a[j * n + k] = a[j * n + k]! - (fj * e[k]! + gj * a[i * n + k]!);
        }
      }
    } else e[i] = a[i * n + l]!;
    d[i] = h;
  }
  for (let i = 0; i < n; i++) d[i] = a[i * n + i]!;
  // QL with implicit shifts on the tridiagonal matrix.
  for (let i = 1; i < n; i++) e[i - 1] = e[i]!;
  if (n > 0) e[n - 1] = 0;
  for (let l = 0; l < n; l++) {
    let iter = 0;
    let m: number;
    do {
      for (m = l; m < n - 1; m++) {
        const dd = Math.abs(d[m]!) + Math.abs(d[m + 1]!);
        if (Math.abs(e[m]!) <= Number.EPSILON * dd) break;
      }
      if (m !== l) {
        if (iter++ === 60) break;
        let g = (d[l + 1]! - d[l]!) / (2 * e[l]!);
        let r = Math.hypot(g, 1);
        g = d[m]! - d[l]! + e[l]! / (g + (g >= 0 ? Math.abs(r) : -Math.abs(r)));
        let s = 1;
        let c = 1;
        let p = 0;
        let i: number;
        for (i = m - 1; i >= l; i--) {
          let f = s * e[i]!;
          const b = c * e[i]!;
          r = Math.hypot(f, g);
          e[i + 1] = r;
          if (r === 0) {
            d[i + 1] = d[i + 1]! - p;
            e[m] = 0;
            break;
          }
          s = f / r;
          c = g / r;
          g = d[i + 1]! - p;
          r = (d[i]! - g) * s + 2 * c * b;
          p = s * r;
          d[i + 1] = g + p;
          g = c * r - b;
          f = 0;
        }
        if (r === 0 && i >= l) continue;
        d[l] = d[l]! - p;
        e[l] = g;
        e[m] = 0;
      }
    } while (m !== l);
  }
  return d.sort();
}
