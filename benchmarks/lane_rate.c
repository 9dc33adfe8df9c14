/* This machine's limit for the kernel's lane operations: float32 adds and maxima on AVX2
 * registers (8 lanes each), twelve independent chains so that latency does not count, only the
 * pipes. Compiled by bench_kernel.py with the kernel's flags; called with ctypes, timed there.
 *
 * lane_ops(kind, n) runs n rounds of 12 register operations and returns a sum of the lanes (so
 * that nothing is optimised away): kind 0 adds, 1 maxima, 2 six adds and six maxima. */
#include <immintrin.h>

#define ADD(a) a = _mm256_add_ps(a, step)
#define MAX(a) a = _mm256_max_ps(a, top)
/* the chains stay in registers: the compiler may neither fold nor hoist them */
#define KEEP __asm__ volatile("" : "+x"(a0), "+x"(a1), "+x"(a2), "+x"(a3), "+x"(a4), "+x"(a5), \
                              "+x"(a6), "+x"(a7), "+x"(a8), "+x"(a9), "+x"(a10), "+x"(a11))

__attribute__((target("avx2"))) double lane_ops(int kind, long n) {
    const __m256 step = _mm256_set1_ps(1e-7f), top = _mm256_set1_ps(0.5f);
    __m256 a0 = _mm256_set1_ps(0.f), a1 = _mm256_set1_ps(1.f), a2 = _mm256_set1_ps(2.f);
    __m256 a3 = _mm256_set1_ps(3.f), a4 = _mm256_set1_ps(4.f), a5 = _mm256_set1_ps(5.f);
    __m256 a6 = _mm256_set1_ps(6.f), a7 = _mm256_set1_ps(7.f), a8 = _mm256_set1_ps(8.f);
    __m256 a9 = _mm256_set1_ps(9.f), a10 = _mm256_set1_ps(10.f), a11 = _mm256_set1_ps(11.f);
    if (kind == 0) {
        for (long i = 0; i < n; i++) {
            ADD(a0); ADD(a1); ADD(a2); ADD(a3); ADD(a4); ADD(a5);
            ADD(a6); ADD(a7); ADD(a8); ADD(a9); ADD(a10); ADD(a11);
            KEEP;
        }
    } else if (kind == 1) {
        for (long i = 0; i < n; i++) {
            MAX(a0); MAX(a1); MAX(a2); MAX(a3); MAX(a4); MAX(a5);
            MAX(a6); MAX(a7); MAX(a8); MAX(a9); MAX(a10); MAX(a11);
            KEEP;
        }
    } else {
        for (long i = 0; i < n; i++) {
            ADD(a0); MAX(a1); ADD(a2); MAX(a3); ADD(a4); MAX(a5);
            ADD(a6); MAX(a7); ADD(a8); MAX(a9); ADD(a10); MAX(a11);
            KEEP;
        }
    }
    __m256 s = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(a0, a1), _mm256_add_ps(a2, a3)),
                             _mm256_add_ps(_mm256_add_ps(a4, a5), _mm256_add_ps(a6, a7)));
    s = _mm256_add_ps(s, _mm256_add_ps(_mm256_add_ps(a8, a9), _mm256_add_ps(a10, a11)));
    float lanes[8];
    _mm256_storeu_ps(lanes, s);
    double total = 0;
    for (int i = 0; i < 8; i++) total += lanes[i];
    return total;
}
