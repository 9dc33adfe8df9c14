/* The kernel for one value type and one instruction set: included by _kernel.c with W (lanes
 * of a chunk), NR (registers of a chunk's row), REAL (float or double), SUF (the name suffix)
 * and KN_VMAX (1: KN_MAXV(a, b) is the build's one-instruction lane maximum, vmaxps / vmaxpd)
 * defined. See _kernel.c for the equations. */

_Static_assert((W == 8 && (NR == 1 || NR == 2)) || (W == 16 && NR == 1),
               "a chunk is 8 lanes in one or two registers, or 16 lanes in one");

/* W lanes as NR registers of W / NR lanes each (GCC vector extensions, one AVX2 register each,
 * or with W = 16 one AVX-512 register: GCC keeps a vector wider than a register in memory) */
typedef REAL SUF(reg) __attribute__((vector_size(W / NR * sizeof(REAL))));
typedef IREAL SUF(ireg) __attribute__((vector_size(W / NR * sizeof(REAL))));
typedef REAL SUF(vec4) __attribute__((vector_size(4 * sizeof(REAL))));
typedef struct {
    SUF(reg) a;
#if NR == 2
    SUF(reg) b;
#endif
} SUF(vec);
#define RL (W / NR) /* lanes of a register */

#if NR == 2
#define EACH(v, x, y, op) do { (v).a = op((x).a, (y).a); (v).b = op((x).b, (y).b); } while (0)
#else
#define EACH(v, x, y, op) do { (v).a = op((x).a, (y).a); } while (0)
#endif

static inline __attribute__((always_inline)) SUF(vec) SUF(ld)(const REAL *p) {
    SUF(vec) v;
    memcpy(&v.a, p, sizeof v.a);
#if NR == 2
    memcpy(&v.b, p + RL, sizeof v.b);
#endif
    return v;
}

static inline __attribute__((always_inline)) void SUF(st)(REAL *p, SUF(vec) v) {
    memcpy(p, &v.a, sizeof v.a);
#if NR == 2
    memcpy(p + RL, &v.b, sizeof v.b);
#endif
}

/* every lane x */
static inline __attribute__((always_inline)) SUF(vec) SUF(splat)(REAL x) {
    SUF(vec) v;
    v.a = (SUF(reg)){0} + x;
#if NR == 2
    v.b = v.a;
#endif
    return v;
}

/* a > b ? a : b, lane by lane. In the AVX2 and AVX-512 builds one vmaxps / vmaxpd: x86's max(a, b) is
 * defined as exactly that, b also where either is NaN or both are zeros, so the same bits for
 * any input (GCC compiles the masked form below to a compare and a blend, two instructions). */
static inline __attribute__((always_inline)) SUF(reg) SUF(rmax)(SUF(reg) a, SUF(reg) b) {
#if KN_VMAX
    return (SUF(reg))KN_MAXV(a, b);
#else
    SUF(ireg) m = a > b;
    return (SUF(reg))(((SUF(ireg))a & m) | ((SUF(ireg))b & ~m));
#endif
}
#define SUF_RADD(a, b) ((a) + (b))
#define SUF_RMUL(a, b) ((a) * (b))

static inline __attribute__((always_inline)) SUF(vec) SUF(vmax)(SUF(vec) x, SUF(vec) y) {
    SUF(vec) v;
    EACH(v, x, y, SUF(rmax));
    return v;
}

static inline __attribute__((always_inline)) SUF(vec) SUF(vadd)(SUF(vec) x, SUF(vec) y) {
    SUF(vec) v;
    EACH(v, x, y, SUF_RADD);
    return v;
}

/* x * c, lane by lane */
static inline __attribute__((always_inline)) SUF(vec) SUF(vscale)(SUF(vec) x, REAL c) {
    SUF(vec) v, cv = SUF(splat)(c);
    EACH(v, x, cv, SUF_RMUL);
    return v;
}

typedef struct {
    /* the values an entry can lead to, one row of W lanes each (rows: see ROW_*):
     * UV(b, c) entering c dice of face b + 1 in upper box b (points, bonus, successor),
     * SV(b) the successor of lower box b, SV50 the successor of the kniffel box scored with 50
     * (extra flag set), Z the best strike (0 points) */
    REAL src[NROWS][W];
    int32_t *row;         /* the entries of the set being solved: hand h's are     */
    REAL *add;            /* row[hptr[h]..hptr[h + 1]] (+ add points), see plan()  */
    int32_t *hptr;
    REAL *S;              /* (nh, W) best entry of each hand */
    REAL *T;              /* (nh, W) S of one chip fewer (chip layer, float64 builds) */
    REAL *K;              /* (nms, nch, W) keep expectations, then best sub-keeps */
} SUF(scratch);

static REAL *SUF(lanes_alloc)(int64_t rows) {
    size_t bytes = (size_t)rows * W * sizeof(REAL);
    bytes = (bytes + 63) / 64 * 64;
    REAL *p = (REAL *)aligned_alloc(64, bytes);
    if (p) memset(p, 0, bytes);
    return p;
}

static int SUF(scratch_init)(SUF(scratch) *s, const kn_tables *t) {
    const int64_t *p = t->params;
    int64_t nh = p[P_NH], nd = p[P_ND];
    int64_t nch = nd > 1 ? nd + 1 : 1;
    s->S = SUF(lanes_alloc)(nh);
#if NR == 1
    s->T = NULL; /* the chip layer's shift is made inside keep_expect */
#else
    s->T = SUF(lanes_alloc)(nh);
#endif
    s->K = SUF(lanes_alloc)(t->nms * nch);
    int64_t pairs = t->hand_ptr[nh] + nh;
    s->row = (int32_t *)malloc((size_t)pairs * sizeof(int32_t));
    s->add = (REAL *)malloc((size_t)pairs * sizeof(REAL));
    s->hptr = (int32_t *)malloc((size_t)(nh + 1) * sizeof(int32_t));
    return s->S && (NR == 1 || s->T) && s->K && s->row && s->add && s->hptr;
}

static void SUF(scratch_free)(SUF(scratch) *s) {
    free(s->S);
    free(s->T);
    free(s->K);
    free(s->row);
    free(s->add);
    free(s->hptr);
}

/* Values of entering each open box: UV upper, SV lower, Z the best strike. Lanes w..W-1
 * (padding) repeat lane w - 1. */
static INLINE void SUF(successors)(const kn_tables *t, int64_t F, int64_t l0, int64_t w,
                                   int64_t xf, const REAL *V, SUF(scratch) *s) {
    const int64_t *p = t->params;
    int64_t nb = p[P_NB], maxc = p[P_MAXC], kn_box = p[P_KN_BOX];
    int yflag = p[P_EXTRA] != 0 && p[P_CHIPS] == 0 && kn_box >= 0;
    int64_t U = F & 63;
    int64_t nc = maxc + 1;
    for (int lane = 0; lane < W; lane++) s->src[ROW_Z][lane] = (REAL)NEG;
    for (int64_t b = 0; b < nb; b++) {
        if ((F >> b) & 1) continue;
        int64_t b2 = t->base[F | ((int64_t)1 << b)];
        if (b < 6) {
            for (int lane = 0; lane < W; lane++) {
                int64_t L = l0 + (lane < w ? lane : w - 1);
                int64_t k = L / xf, x = L % xf;
                const int32_t *tk = t->trans_k + ((U * t->maxu + k) * 6 + b) * nc;
                const int32_t *tg = t->trans_gain + ((U * t->maxu + k) * 6 + b) * nc;
                for (int64_t c = 0; c < nc; c++)
                    s->src[ROW_UV(b, c)][lane] = (REAL)((double)tg[c] + (double)V[b2 + tk[c] * xf + x]);
                if (s->src[ROW_UV(b, 0)][lane] > s->src[ROW_Z][lane]) s->src[ROW_Z][lane] = s->src[ROW_UV(b, 0)][lane];
            }
        } else {
            for (int lane = 0; lane < W; lane++) {
                int64_t L = l0 + (lane < w ? lane : w - 1);
                if (yflag && b == kn_box) {
                    int64_t k = L / xf;
                    s->src[ROW_SV(b)][lane] = V[b2 + k * 2];
                    s->src[ROW_SV50][lane] = V[b2 + k * 2 + 1];
                } else {
                    s->src[ROW_SV(b)][lane] = V[b2 + L];
                }
                if (s->src[ROW_SV(b)][lane] > s->src[ROW_Z][lane]) s->src[ROW_Z][lane] = s->src[ROW_SV(b)][lane];
            }
        }
    }
}

/* The value of a further Kniffel under the classic rules (see ExtraKniffel). */
static INLINE double SUF(further_kniffel)(const kn_tables *t, int64_t F, int64_t h, int lane, int64_t y,
                                   int64_t face, const SUF(scratch) *s, double normal) {
    const int64_t *p = t->params;
    int64_t nb = p[P_NB], maxc = p[P_MAXC], strike = p[P_STRIKE], extra = p[P_EXTRA];
    int64_t extra_bonus = p[P_EXTRA_BONUS];
    int64_t bonus = y == 1 ? extra_bonus : 0;
    const int32_t *pts = t->pts + h * nb;
    double best = NEG, v;
    if (extra == 4) { /* free-choice joker: any open box; full house and straights in full */
        if (!((F >> (face - 1)) & 1)) return (double)bonus + normal;
        for (int64_t b = 0; b < nb; b++) {
            if ((F >> b) & 1) continue;
            if (b < 6) {
                v = s->src[ROW_UV(b, 0)][lane];
            } else {
                int64_t pp = t->box_kind[b] == 4 ? t->box_max[b] : (pts[b] > 0 ? pts[b] : 0);
                v = (double)pp + (double)s->src[ROW_SV(b)][lane];
            }
            if (v > best) best = v;
        }
        return (double)bonus + best;
    }
    if (extra == 3) { /* forced joker, whether the box holds 50 or 0 */
        if (!((F >> (face - 1)) & 1)) return (double)bonus + (double)s->src[ROW_UV(face - 1, maxc)][lane];
        for (int64_t b = 6; b < nb; b++) {
            if ((F >> b) & 1) continue;
            int64_t pp = t->box_kind[b] == 4 ? t->box_max[b] : (pts[b] > 0 ? pts[b] : 0);
            v = (double)pp + (double)s->src[ROW_SV(b)][lane];
            if (v > best) best = v;
        }
        if (best == NEG) {
            for (int64_t b = 0; b < 6; b++)
                if (!((F >> b) & 1) && s->src[ROW_UV(b, 0)][lane] > best) best = s->src[ROW_UV(b, 0)][lane];
        }
        return (double)bonus + best;
    }
    if (y == 0) return normal;
    if (extra == 5) return (double)extra_bonus + normal; /* bonus only: entered as any roll */
    if (extra == 1) { /* any open box at its maximum */
        for (int64_t b = 0; b < nb; b++) {
            if ((F >> b) & 1) continue;
            v = b < 6 ? (double)s->src[ROW_UV(b, maxc)][lane]
                      : (double)t->box_max[b] + (double)s->src[ROW_SV(b)][lane];
            if (v > best) best = v;
        }
        if (strike == 1 && s->src[ROW_Z][lane] > best) best = s->src[ROW_Z][lane];
        return (double)extra_bonus + best;
    }
    /* championship: the face's upper box, three/four of a kind or chance at real points */
    if (!((F >> (face - 1)) & 1)) best = s->src[ROW_UV(face - 1, maxc)][lane];
    for (int64_t b = 6; b < nb; b++) {
        int64_t kind = t->box_kind[b];
        if (((F >> b) & 1) || kind < 1 || kind > 3) continue;
        v = (double)pts[b] + (double)s->src[ROW_SV(b)][lane];
        if (v > best) best = v;
    }
    if (best == NEG) best = s->src[ROW_Z][lane];
    return (double)extra_bonus + best;
}

/* The entries of hand h on the sheet F: the open boxes it fits, in box order, each as the row
 * of src its value comes from and the points added to it; and the strike (row Z) where the hand
 * fits no open box or striking is free. Made once per set, for all its chunks. */
static INLINE void SUF(plan)(const kn_tables *t, int64_t F, SUF(scratch) *s) {
    const int64_t *p = t->params;
    int64_t nh = p[P_NH], strike = p[P_STRIKE], kn_box = p[P_KN_BOX];
    int yflag = p[P_EXTRA] != 0 && p[P_CHIPS] == 0 && kn_box >= 0;
    int32_t n = 0;
    for (int64_t h = 0; h < nh; h++) {
        s->hptr[h] = n;
        int fit = 0;
        for (int32_t e = t->hand_ptr[h]; e < t->hand_ptr[h + 1]; e++) {
            int64_t b = t->hand_box[e];
            if ((F >> b) & 1) continue;
            fit = 1;
            if (b < 6) {
                s->row[n] = ROW_UV(b, t->hand_v[e]);
                s->add[n] = 0;  /* x + 0 == x: the row's value as it is */
            } else {
                s->row[n] = (yflag && b == kn_box) ? ROW_SV50 : ROW_SV(b);
                s->add[n] = (REAL)t->hand_v[e];
            }
            n++;
        }
        if (strike != 0 || !fit) {
            s->row[n] = ROW_Z;
            s->add[n] = 0;
            n++;
        }
    }
    s->hptr[nh] = n;
}

/* S[h]: the value of the best legal entry of hand h (points, bonuses, successor), over the
 * entries plan() listed. */
static INLINE void SUF(score)(const kn_tables *t, int64_t F, int64_t l0, int64_t xf,
                              SUF(scratch) *s) {
    const int64_t *p = t->params;
    int64_t nh = p[P_NH], extra = p[P_EXTRA], kn_box = p[P_KN_BOX];
    int further = extra != 0 && kn_box >= 0 && ((F >> kn_box) & 1);
    REAL *restrict S = s->S;
    const SUF(vec) negv = SUF(splat)((REAL)NEG);
    const int32_t *row = s->row;
    const REAL *add = s->add;
    for (int64_t h = 0; h < nh; h++) {
        SUF(vec) acc = negv;
        for (int32_t e = s->hptr[h]; e < s->hptr[h + 1]; e++)
            acc = SUF(vmax)(SUF(vadd)(SUF(ld)(s->src[row[e]]), SUF(splat)(add[e])), acc);
        SUF(st)(S + h * W, acc);
    }
    if (!further) return;
    for (int64_t h = 0; h < nh; h++) {
        int64_t face = t->kn_face[h];
        if (face <= 0) continue;
        for (int lane = 0; lane < W; lane++) {
            int64_t y = (l0 + lane) % xf;
            S[h * W + lane] = (REAL)SUF(further_kniffel)(t, F, h, lane, y, face, s,
                                                        (double)S[h * W + lane]);
        }
    }
}

/* K[m, c]: the expectation over the hands H of keeping multiset m with d10 channel c (c < nd:
 * the d10 kept showing c; c = nd: re-rolled). H NULL: the hands' values are in K's rows of the
 * five-dice multisets already (hand_best_into). gather (one register of lane indices, float32
 * builds only) not NULL: lane l of K's five-dice rows is lane gather[l] of H, the chip layer's
 * shift made in the copy. */
static INLINE void SUF(keep_expect)(const kn_tables *t, const REAL *restrict H,
                                    REAL *restrict K, const int64_t nd,
                                    const SUF(ireg) *gather) {
    const int64_t *p = t->params;
    int64_t n_small = p[P_NSMALL];
    int64_t nch = nd > 1 ? nd + 1 : 1;
    int64_t row = nch * W;
    for (int64_t i5 = 0; H && i5 < t->n5; i5++) {
        int64_t m = t->hand_ms[i5];
        const REAL *src = H + i5 * nd * W;
        REAL *dst = K + m * row;
#if NR == 1
        if (gather) { /* the chip layer: lane l takes lane gather[l] of H (see widget) */
            for (int64_t j = 0; j < nd * W; j += W) {
                SUF(vec) v = SUF(ld)(src + j);
                v.a = __builtin_shuffle(v.a, *gather);
                SUF(st)(dst + j, v);
            }
            continue;
        }
#endif
        for (int64_t j = 0; j < nd * W; j += W) SUF(st)(dst + j, SUF(ld)(src + j));
    }
    const REAL inv6 = (REAL)(1.0 / 6.0);
    for (int64_t m = n_small - 1; m >= 0; m--) {
        const int32_t *a = t->ms_add + m * 6;
        const REAL *K0 = K + a[0] * row, *K1 = K + a[1] * row, *K2 = K + a[2] * row;
        const REAL *K3 = K + a[3] * row, *K4 = K + a[4] * row, *K5 = K + a[5] * row;
        REAL *dst = K + m * row;
        for (int64_t j = 0; j < nd * W; j += W) {
            SUF(vec) sum = SUF(vadd)(SUF(ld)(K0 + j), SUF(ld)(K1 + j));
            sum = SUF(vadd)(sum, SUF(ld)(K2 + j));
            sum = SUF(vadd)(sum, SUF(ld)(K3 + j));
            sum = SUF(vadd)(sum, SUF(ld)(K4 + j));
            sum = SUF(vadd)(sum, SUF(ld)(K5 + j));
            SUF(st)(dst + j, SUF(vscale)(sum, inv6));
        }
    }
    if (nd > 1) {
        const REAL inv = (REAL)(1.0 / (double)nd);
        for (int64_t m = 0; m < t->nms; m++) {
            REAL *r = K + m * row;
            SUF(vec) acc = SUF(splat)(0);
            for (int64_t d = 0; d < nd; d++) acc = SUF(vadd)(acc, SUF(ld)(r + d * W));
            SUF(st)(r + nd * W, SUF(vscale)(acc, inv));
        }
    }
}

/* K[m, c] <- max over the sub-multisets s of m of K[s, c], in place: max(K[m], K[m - f] for
 * the faces f of m), K[m - f] being final already (sub-multisets come first). The values are
 * never NaN nor -0, so the order of the maxima does not change the result. */
#define MAXCH 11
static INLINE void SUF(keep_max)(const kn_tables *t, REAL *restrict K, const int64_t nd) {
    const int64_t nch = nd > 1 ? nd + 1 : 1;
    const int64_t row = nch * W;
    if (nch == 1) {
        /* one row of lanes: all six K[m - f] (m itself where m lacks f) as a tree of maxima,
         * three deep, without a branch */
        for (int64_t m = 0; m < t->nms; m++) {
            const int32_t *sub = t->ms_sub + m * 6;
            REAL *dst = K + m * row;
            SUF(vec) a = SUF(vmax)(SUF(ld)(K + sub[0] * row), SUF(ld)(K + sub[1] * row));
            SUF(vec) b = SUF(vmax)(SUF(ld)(K + sub[2] * row), SUF(ld)(K + sub[3] * row));
            SUF(vec) c = SUF(vmax)(SUF(ld)(K + sub[4] * row), SUF(ld)(K + sub[5] * row));
            SUF(st)(dst, SUF(vmax)(SUF(vmax)(a, b), SUF(vmax)(c, SUF(ld)(dst))));
        }
        return;
    }
    if (nch > MAXCH) {
        for (int64_t m = 0; m < t->nms; m++) {
            const int32_t *sub = t->ms_sub + m * 6;
            REAL *dst = K + m * row;
            for (int f = 0; f < 6; f++) {
                if (sub[f] == m) continue;
                const REAL *src = K + (int64_t)sub[f] * row;
                for (int64_t j = 0; j < row; j += W)
                    SUF(st)(dst + j, SUF(vmax)(SUF(ld)(src + j), SUF(ld)(dst + j)));
            }
        }
        return;
    }
    /* a row of up to MAXCH channels stays in registers while the rows of the faces m has
     * stream past */
    for (int64_t m = 0; m < t->nms; m++) {
        const int32_t *sub = t->ms_sub + m * 6;
        REAL *dst = K + m * row;
        SUF(vec) acc[MAXCH];
        for (int64_t c = 0; c < nch; c++) acc[c] = SUF(ld)(dst + c * W);
        for (int f = 0; f < 6; f++) {
            if (sub[f] == m) continue;
            const REAL *src = K + (int64_t)sub[f] * row;
            for (int64_t c = 0; c < nch; c++) acc[c] = SUF(vmax)(SUF(ld)(src + c * W), acc[c]);
        }
        for (int64_t c = 0; c < nch; c++) SUF(st)(dst + c * W, acc[c]);
    }
}

/* The first roll's sum over the hands h of p0[h] * value[h] in float64, four lanes per register
 * (an 8-double vector would live on the stack): acc[g] += p0[h] * lanes 4g..4g+3 of row, for the
 * hands in the order h = i5 * nd + d. */
static INLINE void SUF(first_add)(dvec4 *acc, double q, const REAL *row) {
    for (int g = 0; g < W / 4; g++) {
        SUF(vec4) a;
        memcpy(&a, row + 4 * g, sizeof a);
        acc[g] += q * __builtin_convertvector(a, dvec4);
    }
}

/* The value of each hand before a throw, max(S[h], best keep of hand h + off), written into K
 * itself: hand h = i5 * nd + d goes to K[hand_ms[i5], d], the row keep_expect takes the hands'
 * values from (each row read before it is written; the re-roll channel nd is left as it is,
 * keep_expect makes it anew). first not NULL (the last throw's layer): the first roll's sum is
 * taken of each hand as it is written (first_add, the hands in their order), so that its chain
 * of float64 adds runs beside this loop's work instead of in a pass of its own. */
static INLINE void SUF(hand_best_into)(const kn_tables *t, REAL *K, const REAL *restrict S,
                                       const REAL *off, const int64_t nd, dvec4 *first) {
    int64_t row = (nd > 1 ? nd + 1 : 1) * W;
    int64_t r = nd > 1 ? nd : 0;
    const SUF(vec) offv = SUF(ld)(off);
    for (int64_t i5 = 0; i5 < t->n5; i5++) {
        REAL *Km = K + (int64_t)t->hand_ms[i5] * row;
        const SUF(vec) reroll = SUF(ld)(Km + r * W);
        for (int64_t d = 0; d < nd; d++) {
            int64_t h = i5 * nd + d;
            SUF(vec) best = SUF(vadd)(SUF(vmax)(reroll, SUF(ld)(Km + d * W)), offv);
            SUF(st)(Km + d * W, SUF(vmax)(best, SUF(ld)(S + h * W)));
            if (first) SUF(first_add)(first, t->p0[h], Km + d * W);
        }
    }
}

static INLINE void SUF(record_keeps)(const kn_tables *t, const REAL *K, int64_t w, double *rec) {
    int64_t nd = t->params[P_ND];
    int64_t nch = nd > 1 ? nd + 1 : 1;
    for (int64_t m = 0; m < t->nms; m++)
        for (int64_t c = 0; c < nch; c++)
            for (int64_t lane = 0; lane < w; lane++)
                rec[(m * nch + c) * w + lane] = K[(m * nch + c) * W + lane];
}

/* out[l] = E for the lanes l0..l0+w-1 of F (w <= W); with rec_K/rec_S also every keep
 * expectation (rolls, nms, nch * w) and every best entry (nh, w). */
static INLINE void SUF(widget)(const kn_tables *t, int64_t F, int64_t l0, int64_t w, int64_t xf,
                        const REAL *V, SUF(scratch) *s, double *out, double *rec_K,
                        double *rec_S, const int64_t nd) {
    const int64_t *p = t->params;
    int64_t nh = p[P_NH], chips = p[P_CHIPS], rolls = p[P_ROLLS];
    int64_t nch = nd > 1 ? nd + 1 : 1;
    REAL zero[W], off[W];
    for (int lane = 0; lane < W; lane++) zero[lane] = 0;
    dvec4 first[W / 4]; /* the first roll's sums, four lanes each (first_add) */
    for (int g = 0; g < W / 4; g++) first[g] = (dvec4){0};
    KN_START();
    SUF(successors)(t, F, l0, w, xf, V, s);
    KN_TICK(KN_ST_SUCC);
    SUF(score)(t, F, l0, xf, s);
    KN_TICK(KN_ST_SCORE);
    if (rec_S)
        for (int64_t h = 0; h < nh; h++)
            for (int64_t lane = 0; lane < w; lane++) rec_S[h * w + lane] = s->S[h * W + lane];
    const REAL *src = s->S;
    if (chips > 0) {
        /* lane l (x chips left) throws the chip roll into the entries of lane l - 1 (x - 1) */
        int gather[W];
        for (int lane = 0; lane < W; lane++) {
            int has_chip = (l0 + lane) % xf > 0 && lane > 0;
            gather[lane] = has_chip ? lane - 1 : lane;
            off[lane] = has_chip ? (REAL)0 : (REAL)NEG;
        }
#if NR == 1
        /* one register: the shift is a lane shuffle inside keep_expect's copy of the hands */
        SUF(ireg) shuffle;
        for (int lane = 0; lane < W; lane++) shuffle[lane] = gather[lane];
        KN_TICK(KN_ST_SHIFT);
        SUF(keep_expect)(t, s->S, s->K, nd, &shuffle);
#else
        for (int64_t h = 0; h < nh; h++)
            for (int lane = 0; lane < W; lane++) s->T[h * W + lane] = s->S[h * W + gather[lane]];
        KN_TICK(KN_ST_SHIFT);
        SUF(keep_expect)(t, s->T, s->K, nd, NULL);
#endif
        KN_TICK(KN_ST_EXPECT(0));
        if (rec_K) SUF(record_keeps)(t, s->K, w, rec_K);
        SUF(keep_max)(t, s->K, nd);
        KN_TICK(KN_ST_MAX(0));
        SUF(hand_best_into)(t, s->K, s->S, off, nd, rolls == 1 ? first : NULL);
        KN_TICK(KN_ST_HAND(0));
        src = NULL; /* the hands' values are in K's five-dice rows */
    }
    for (int64_t r = rolls - 1; r >= 1; r--) {
        SUF(keep_expect)(t, src, s->K, nd, NULL);
        KN_TICK(KN_ST_EXPECT(r));
        if (rec_K) SUF(record_keeps)(t, s->K, w, rec_K + r * t->nms * nch * w);
        SUF(keep_max)(t, s->K, nd);
        KN_TICK(KN_ST_MAX(r));
        SUF(hand_best_into)(t, s->K, s->S, zero, nd, r == 1 ? first : NULL);
        KN_TICK(KN_ST_HAND(r));
        src = NULL;
    }
    /* no throw before the first (one roll, no chip): the first roll's sum of the best entries */
    if (src)
        for (int64_t h = 0; h < nh; h++) SUF(first_add)(first, t->p0[h], src + h * W);
    for (int g = 0; g < W / 4; g++) memcpy(out + 4 * g, &first[g], sizeof first[g]);
    KN_TICK(KN_ST_FIRST);
}

/* V[base[F] + l] = E[l] for the sets masks[first], masks[first + step], ...: one thread's
 * share of a batch. Returns 0, or -1 when its work arrays cannot be allocated. */
static int SUF(kn_solve)(const kn_tables *t, const int64_t *masks, int64_t n, int64_t first,
                  int64_t step, REAL *V) {
    SUF(scratch) s;
    if (!SUF(scratch_init)(&s, t)) {
        SUF(scratch_free)(&s);
        return -1;
    }
    double out[W];
    const int64_t nd = t->params[P_ND];
    for (int64_t i = first; i < n; i += step) {
        int64_t F = masks[i], nl, xf;
        lanes_of(t, F, &nl, &xf);
        int64_t chunk = W / xf * xf;
        int64_t b0 = t->base[F];
        KN_START();
        SUF(plan)(t, F, &s);
        KN_TICK(KN_ST_PLAN);
        for (int64_t l0 = 0; l0 < nl; l0 += chunk) {
            int64_t w = nl - l0 < chunk ? nl - l0 : chunk;
            /* the d10's channels as a compile-time constant for the two dice sets there are */
            if (nd == 10)
                SUF(widget)(t, F, l0, w, xf, V, &s, out, NULL, NULL, 10);
            else if (nd == 1)
                SUF(widget)(t, F, l0, w, xf, V, &s, out, NULL, NULL, 1);
            else
                SUF(widget)(t, F, l0, w, xf, V, &s, out, NULL, NULL, nd);
            for (int64_t lane = 0; lane < w; lane++) V[b0 + l0 + lane] = (REAL)out[lane];
        }
    }
    SUF(scratch_free)(&s);
    return 0;
}

/* For upper state k of F, all its xf lanes: E (xf,), K (rolls, nms, nch * xf) and S (nh, xf),
 * all float64. Returns 0, or -1 when the work arrays cannot be allocated. */
static int SUF(kn_detail)(const kn_tables *t, int64_t F, int64_t k, const REAL *V, double *E,
                   double *rec_K, double *rec_S) {
    SUF(scratch) s;
    if (!SUF(scratch_init)(&s, t)) {
        SUF(scratch_free)(&s);
        return -1;
    }
    int64_t nl, xf;
    lanes_of(t, F, &nl, &xf);
    double out[W];
    SUF(plan)(t, F, &s);
    SUF(widget)(t, F, k * xf, xf, xf, V, &s, out, rec_K, rec_S, t->params[P_ND]);
    for (int64_t lane = 0; lane < xf; lane++) E[lane] = out[lane];
    SUF(scratch_free)(&s);
    return 0;
}

/* The helper macros this body defined for its value type (the includer undefines its own). */
#undef RL
#undef EACH
#undef SUF_RADD
#undef SUF_RMUL
