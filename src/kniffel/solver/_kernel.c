/* The compiled kernel of the solver: one turn ("widget") for every lane of a filled-box set.
 *
 * For a filled-box set F and its lanes l = k * xf + x (upper state k, chips or kniffel flag x;
 * see kniffel.solver.tables) the kernel computes the expected points still to come at the start
 * of a turn,
 *
 *     E[l]       = sum_h P0[h] * H1[h, l]                          (first roll: all dice)
 *     H_r[h, l]  = max(S[h, l], max_{k in h} K_{r+1}[k, l])        (after roll r < rolls)
 *     K_r[k, l]  = sum_h P(h | k) * H_r[h, l]                      (keep k, then roll r)
 *     H_rolls    = S, or with a chip left (x >= 1) max(S, max_{k in h} K_chip[k, l]), K_chip
 *                  being the keep expectations over S[., l - 1] (one chip fewer)
 *
 * where S[h, l] is the best legal entry of hand h: its points, the upper bonus when it is
 * earned, the extra-Kniffel bonus, plus the value V of the successor state.
 *
 * Lanes go in chunks of W = 8, fixed at compile time so that every lane loop is straight vector
 * code: one AVX2 register of float32, two of float64 (two independent registers per row also
 * halve the index work per lane of the classic sets' one-channel rows); on a CPU with AVX-512 the
 * float32 chunks are W = 16 lanes, one zmm register. A chunk's keep array (462 keeps x 11
 * channels x W lanes) and its hand array stay in a core's L2 cache. Keep
 * expectations are built one die at a time, K[m] = (1/6) sum_f K[m + f], and the best sub-keep
 * in place, K[m] = max(K[m], max_f K[m - f]) (sub-multisets come first in the multiset order).
 * H_r is kept in K's rows of the five-dice multisets, where the next layer's K starts from;
 * E's sum over H_1 is taken as H_1 is written (float64, the hands in their order), so that its
 * chain of adds runs beside that loop's loads and maxima.
 *
 * The arithmetic is that of the reference (numba) kernel this replaced, operation for operation:
 * float32 (Kniffel Extreme) or float64 values, sums left to right, no fused multiply-add, so the
 * tables are the same to the bit. The library holds no Python code: kniffel.solver.kernel loads
 * it with ctypes and runs one call per thread (ctypes releases the GIL).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAXB 32   /* boxes of a rule set, at most */
#define MAXC 7    /* counts of a face, 0..6 */
#define NEG (-1.0e30)
/* Rows of a widget's entry values (scratch.src). */
#define ROW_UV(b, c) ((b) * MAXC + (c))
#define ROW_SV(b) (6 * MAXC + (b))
#define ROW_SV50 (6 * MAXC + MAXB)
#define ROW_Z (ROW_SV50 + 1)
#define NROWS (ROW_Z + 1)
/* Every stage is inlined into the entry points, so that each of their builds (AVX2 and the
 * baseline, below) compiles the whole turn for its instruction set. */
#ifndef INLINE
#define INLINE inline __attribute__((always_inline))
#endif

/* Indices into params: the names and order of kniffel.solver.tables.P_* (a test checks). */
enum { P_NB, P_ND, P_NH, P_T, P_MAXC, P_NSMALL, P_STRIKE, P_EXTRA, P_EXTRA_BONUS,
       P_KN_BOX, P_CHIPS, P_ROLLS, P_X_FULL, P_BONUS };

typedef struct {
    const int64_t *params;
    const int32_t *ms_add;    /* (nms, 6) */
    const int32_t *ms_sub;    /* (nms, 6) */
    const int32_t *hand_ms;   /* (n5,) */
    const double *p0;         /* (nh,) */
    const int32_t *pts;       /* (nh, nb) */
    const int32_t *kn_face;   /* (nh,) */
    const int32_t *n_u;       /* (64,) */
    const int32_t *trans_k;   /* (64, maxu, 6, maxc + 1) */
    const int32_t *trans_gain;
    const int32_t *box_kind;  /* (nb,) */
    const int32_t *box_max;   /* (nb,) */
    const int32_t *hand_ptr;  /* (nh + 1,) */
    const int32_t *hand_box;
    const int32_t *hand_v;
    const int64_t *base;      /* (2^nb,) */
    int64_t nms;
    int64_t n5;
    int64_t maxu;
} kn_tables;

/* Lanes per chunk (W of either value type): a set's lanes of one upper state must fit one. */
int kn_lanes_per_chunk(void) { return 8; }

/* How many further-Kniffel rules this build knows (codes 0..n-1 of tables.EXTRA_CODES), so that
 * a library built from older sources refuses a rule set it would solve wrongly. */
int kn_extra_rules(void) { return 6; }

static inline void lanes_of(const kn_tables *t, int64_t F, int64_t *nl, int64_t *xf) {
    const int64_t *p = t->params;
    int64_t x;
    if (p[P_CHIPS] > 0)
        x = p[P_CHIPS] + 1;
    else if (p[P_EXTRA] != 0 && p[P_KN_BOX] >= 0 && ((F >> p[P_KN_BOX]) & 1))
        x = 2;
    else
        x = 1;
    *xf = x;
    *nl = (int64_t)t->n_u[F & 63] * x;
}

/* Stage timers, only in a build with -DKN_PROFILE (benchmarks/bench_kernel.py compiles such a
 * copy for itself; in the shipped library KN_START and KN_TICK are nothing): KN_TICK(s) adds
 * the time-stamp counter's ticks since the last KN_START or KN_TICK to stage s. One thread. */
enum { KN_ST_PLAN, KN_ST_SUCC, KN_ST_SCORE, KN_ST_SHIFT, KN_ST_LAYERS };
#define KN_MAX_LAYERS 4 /* keep layers timed apart: the chip's (0) and rolls 1..3 */
#define KN_LAYER(r) ((r) < KN_MAX_LAYERS ? (r) : KN_MAX_LAYERS - 1)
#define KN_ST_EXPECT(r) (KN_ST_LAYERS + 3 * KN_LAYER(r))
#define KN_ST_MAX(r) (KN_ST_LAYERS + 3 * KN_LAYER(r) + 1)
#define KN_ST_HAND(r) (KN_ST_LAYERS + 3 * KN_LAYER(r) + 2)
#define KN_ST_FIRST (KN_ST_LAYERS + 3 * KN_MAX_LAYERS)
#define KN_NSTAGES (KN_ST_FIRST + 1)
#ifdef KN_PROFILE
#include <x86intrin.h>
static uint64_t kn_ticks[KN_NSTAGES], kn_last;
#define KN_START() (kn_last = __rdtsc())
#define KN_TICK(s) do { uint64_t now_ = __rdtsc(); kn_ticks[s] += now_ - kn_last; kn_last = now_; } while (0)
/* The ticks of every stage since the last call (KN_NSTAGES of them into out); returns how many. */
int kn_profile(uint64_t *out) {
    for (int i = 0; i < KN_NSTAGES; i++) {
        out[i] = kn_ticks[i];
        kn_ticks[i] = 0;
    }
    return KN_NSTAGES;
}
#else
#define KN_START() ((void)0)
#define KN_TICK(s) ((void)0)
#endif

/* four lanes of float64, for the first roll's expectation */
typedef double dvec4 __attribute__((vector_size(4 * sizeof(double))));

/* Each value type's kernel is compiled for AVX2 (x86-64 with GCC: every lane maximum one
 * vmaxps / vmaxpd) and for the baseline instruction set, float32 also for AVX-512 with chunks of
 * 16 lanes (4 upper states x 4 chip counts in Kniffel Extreme, one zmm register per row);
 * kn_solve_* and kn_detail_* run the widest build the CPU can run. A library compiled with
 * -DKN_WIDE_ON_AVX2 (tests/test_kernel_wide.py builds one) puts the same 16-lane body in the
 * AVX-512 build's place, compiled for AVX2 (each 16-lane vector two ymm halves, the maximum
 * the masked form), so that the 16-lane code is checked to the bit on a CPU without AVX-512. */
#if defined(__x86_64__) && defined(__GNUC__)
#define KN_AVX2_BUILD 1
#include <immintrin.h>
#else
#define KN_AVX2_BUILD 0
#endif

/* float32, baseline */
#define W 8
#define NR 1
#define REAL float
#define IREAL int32_t
#define KN_VMAX 0
#define SUF(name) name##_f32_base
#include "_kernel_body.h"
#undef SUF
#undef KN_VMAX

#if KN_AVX2_BUILD
/* float32, AVX2 */
#pragma GCC push_options
#pragma GCC target("avx2")
#define KN_VMAX 1
#define KN_MAXV(a, b) _mm256_max_ps((__m256)(a), (__m256)(b))
#define SUF(name) name##_f32_avx2
#include "_kernel_body.h"
#undef SUF
#undef KN_MAXV
#undef KN_VMAX
#pragma GCC pop_options

/* float32, 16 lanes: AVX-512 (or, for the test, AVX2) */
#undef W
#define W 16
#pragma GCC push_options
#ifdef KN_WIDE_ON_AVX2
#pragma GCC target("avx2")
#define KN_VMAX 0
#else
#pragma GCC target("avx512f")
#define KN_VMAX 1
#define KN_MAXV(a, b) _mm512_max_ps((__m512)(a), (__m512)(b))
#endif
#define SUF(name) name##_f32_avx512
#include "_kernel_body.h"
#undef SUF
#ifdef KN_MAXV
#undef KN_MAXV
#endif
#undef KN_VMAX
#pragma GCC pop_options
#undef W
#define W 8
#endif
#undef REAL
#undef IREAL
#undef NR

/* float64, baseline */
#define NR 2
#define REAL double
#define IREAL int64_t
#define KN_VMAX 0
#define SUF(name) name##_f64_base
#include "_kernel_body.h"
#undef SUF
#undef KN_VMAX

#if KN_AVX2_BUILD
/* float64, AVX2 */
#pragma GCC push_options
#pragma GCC target("avx2")
#define KN_VMAX 1
#define KN_MAXV(a, b) _mm256_max_pd((__m256d)(a), (__m256d)(b))
#define SUF(name) name##_f64_avx2
#include "_kernel_body.h"
#undef SUF
#undef KN_MAXV
#undef KN_VMAX
#pragma GCC pop_options
#endif
#undef REAL
#undef IREAL
#undef NR
#undef W

/* 1 where the AVX2 build may run: the CPU has AVX2 and the system saves its registers (the test
 * target_clones made; libgcc reads the CPU's features once, when the library is loaded). */
static int kn_avx2(void) {
#if KN_AVX2_BUILD
    return __builtin_cpu_supports("avx2") ? 1 : 0;
#else
    return 0;
#endif
}

/* 1 where the 16-lane float32 build may run: AVX-512 Foundation (the test library: AVX2). */
static int kn_wide(void) {
#if KN_AVX2_BUILD && defined(KN_WIDE_ON_AVX2)
    return kn_avx2();
#elif KN_AVX2_BUILD
    return __builtin_cpu_supports("avx512f") ? 1 : 0;
#else
    return 0;
#endif
}

#if KN_AVX2_BUILD
#define KN_PICK(name, ...) (kn_avx2() ? name##_avx2(__VA_ARGS__) : name##_base(__VA_ARGS__))
#define KN_PICK32(name, ...) (kn_wide() ? name##_avx512(__VA_ARGS__) : KN_PICK(name, __VA_ARGS__))
#else
#define KN_PICK(name, ...) name##_base(__VA_ARGS__)
#define KN_PICK32(name, ...) name##_base(__VA_ARGS__)
#endif

/* The float32 build kn_solve_f32 runs on this CPU: "avx512" (16 lanes), "avx2" or "baseline";
 * "avx2-16" in a library compiled with -DKN_WIDE_ON_AVX2. */
const char *kn_f32_build(void) {
#if KN_AVX2_BUILD && defined(KN_WIDE_ON_AVX2)
    if (kn_wide()) return "avx2-16";
#else
    if (kn_wide()) return "avx512";
#endif
    return kn_avx2() ? "avx2" : "baseline";
}

int kn_solve_f32(const kn_tables *t, const int64_t *masks, int64_t n, int64_t first, int64_t step,
                 float *V) {
    return KN_PICK32(kn_solve_f32, t, masks, n, first, step, V);
}

int kn_solve_f64(const kn_tables *t, const int64_t *masks, int64_t n, int64_t first, int64_t step,
                 double *V) {
    return KN_PICK(kn_solve_f64, t, masks, n, first, step, V);
}

int kn_detail_f32(const kn_tables *t, int64_t F, int64_t k, const float *V, double *E,
                  double *rec_K, double *rec_S) {
    return KN_PICK32(kn_detail_f32, t, F, k, V, E, rec_K, rec_S);
}

int kn_detail_f64(const kn_tables *t, int64_t F, int64_t k, const double *V, double *E,
                  double *rec_K, double *rec_S) {
    return KN_PICK(kn_detail_f64, t, F, k, V, E, rec_K, rec_S);
}
