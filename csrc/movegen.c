/* Board state, cross-sets and placement generation (GADDAG, Gordon's algorithm).
 *
 * Each placement is generated once: from the last tile of the rightmost board run it goes through, or, through
 * no run, from its rightmost square with a cross word (line_units). In top-k mode every such unit first gets an
 * upper bound ("shadow"), units are visited in descending bound order and the search stops once a bound is below
 * the current k-th best score.
 */
#include "core.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ board set-up */

void cb_init_premiums(CBoard *b, const uint8_t *lm, const uint8_t *wm)
{
    for (int r = 0; r < DIM; r++) {
        for (int c = 0; c < DIM; c++) {
            b->lm[0][r * DIM + c] = b->lm[1][c * DIM + r] = lm[r * DIM + c];
            b->wm[0][r * DIM + c] = b->wm[1][c * DIM + r] = wm[r * DIM + c];
        }
    }
}

static int valid_code(const CBoard *b, unsigned code)
{
    unsigned t = code & ~(unsigned)BLANK_BIT;
    return t >= 1 && (int)t <= b->n_letters;
}

static void put_square(CBoard *b, int row, int col, uint8_t code)
{
    uint8_t t = code & (uint8_t)~BLANK_BIT;
    uint8_t face = (code && !(code & BLANK_BIT)) ? b->values[t] : 0;
    int i0 = row * DIM + col, i1 = col * DIM + row;
    b->sq[0][i0] = b->sq[1][i1] = code;
    b->letter[0][i0] = b->letter[1][i1] = t;
    b->face[0][i0] = b->face[1][i1] = face;
}

/* Follows tiles s[0..n-1] (stepping by step) from list; returns the last entry's index or 0. */
static uint32_t walk(const uint32_t *kwg, uint32_t list, const uint8_t *s, int n, int step)
{
    uint32_t idx = 0;
    for (int k = 0; k < n; k++) {
        idx = kwg_find(kwg, list, s[k * step]);
        if (!idx) return 0;
        list = KWG_ARC(kwg[idx]);
    }
    return idx;
}

/* Letters x such that pre + x + suf is a word. */
static uint64_t cross_set_for(const uint32_t *kwg, const uint8_t *pre, int np, const uint8_t *suf, int ns)
{
    uint64_t set = 0;
    uint32_t list;
    if (ns == 0 || (np > 0 && ns <= np)) {
        /* DAWG: walk pre, then for each x walk suf */
        list = KWG_ARC(kwg[0]);
        if (np) {
            uint32_t idx = walk(kwg, list, pre, np, 1);
            if (!idx) return 0;
            list = KWG_ARC(kwg[idx]);
        }
        if (!list) return 0;
        for (uint32_t i = list;; i++) {
            uint32_t e = kwg[i];
            if (ns == 0) {
                if (e & KWG_ACC_BIT) set |= 1ULL << KWG_TILE(e);
            } else {
                uint32_t idx = walk(kwg, KWG_ARC(e), suf, ns, 1);
                if (idx && (kwg[idx] & KWG_ACC_BIT)) set |= 1ULL << KWG_TILE(e);
            }
            if (e & KWG_END_BIT) break;
        }
    } else {
        /* GADDAG, pivot at the word's last letter: rev(suf), x, rev(pre) */
        uint32_t idx = walk(kwg, KWG_ARC(kwg[1]), suf + ns - 1, ns, -1);
        if (!idx) return 0;
        list = KWG_ARC(kwg[idx]);
        if (!list) return 0;
        for (uint32_t i = list;; i++) {
            uint32_t e = kwg[i];
            if (KWG_TILE(e)) {
                if (np == 0) {
                    if (e & KWG_ACC_BIT) set |= 1ULL << KWG_TILE(e);
                } else {
                    uint32_t j = walk(kwg, KWG_ARC(e), pre + np - 1, np, -1);
                    if (j && (kwg[j] & KWG_ACC_BIT)) set |= 1ULL << KWG_TILE(e);
                }
            }
            if (e & KWG_END_BIT) break;
        }
    }
    return set & ~1ULL;
}

/* Cross information for a direction-d placement putting a tile on square (line l, pos i) of
 * orientation d. The cross word runs along orientation 1-d: line i, around pos l. */
static void compute_cross(CBoard *b, int d, int l, int i)
{
    int idx = l * DIM + i;
    if (b->sq[d][idx]) {
        b->xset[d][idx] = 0;
        b->xscore[d][idx] = -1;
        return;
    }
    const uint8_t *pl = &b->letter[1 - d][i * DIM];
    const uint8_t *pf = &b->face[1 - d][i * DIM];
    int lo = l, hi = l;
    while (lo > 0 && pl[lo - 1]) lo--;
    while (hi < DIM - 1 && pl[hi + 1]) hi++;
    if (lo == l && hi == l) {
        b->xset[d][idx] = b->all_letters;
        b->xscore[d][idx] = -1;
        return;
    }
    int sc = 0;
    for (int k = lo; k <= hi; k++) sc += pf[k];
    b->xscore[d][idx] = (int16_t)sc;
    b->xset[d][idx] = cross_set_for(b->kwg, pl + lo, l - lo, pl + l + 1, hi - l) & b->all_letters;
}

int cb_set_squares(CBoard *b, const uint8_t *squares, int *bad)
{
    for (int s = 0; s < N_SQ; s++) {
        if (squares[s] && !valid_code(b, squares[s])) {
            *bad = s;
            return -1;
        }
    }
    b->n_tiles = 0;
    for (int s = 0; s < N_SQ; s++) {
        put_square(b, s / DIM, s % DIM, squares[s]);
        b->n_tiles += squares[s] != 0;
    }
    for (int d = 0; d < 2; d++) {
        for (int l = 0; l < DIM; l++) {
            for (int i = 0; i < DIM; i++) compute_cross(b, d, l, i);
        }
    }
    return 0;
}

void cb_get_squares(const CBoard *b, uint8_t *out)
{
    memcpy(out, b->sq[0], N_SQ);
}

/* Errors: -1 bad coordinates/direction, -2 runs off the board, -3 a 0 over an empty square,
 * -4 a tile over an occupied square, -5 invalid tile code, -6 no tile placed. */
int cb_place(CBoard *b, int row, int col, int dir, const uint8_t *tiles, int n)
{
    if (row < 0 || row >= DIM || col < 0 || col >= DIM || (dir != 0 && dir != 1) || n < 1) return -1;
    int l = dir == 0 ? row : col, start = dir == 0 ? col : row;
    if (start + n > DIM) return -2;
    const uint8_t *line = &b->sq[dir][l * DIM];
    int placed = 0;
    for (int k = 0; k < n; k++) {
        if (tiles[k] == 0) {
            if (!line[start + k]) return -3;
        } else {
            if (line[start + k]) return -4;
            if (!valid_code(b, tiles[k])) return -5;
            placed++;
        }
    }
    if (!placed) return -6;
    for (int k = 0; k < n; k++) {
        if (!tiles[k]) continue;
        int p = start + k;
        int r = dir == 0 ? l : p, c = dir == 0 ? p : l;
        put_square(b, r, c, tiles[k]);
        for (int d = 0; d < 2; d++) {
            b->xset[d][d == 0 ? r * DIM + c : c * DIM + r] = 0;
            b->xscore[d][d == 0 ? r * DIM + c : c * DIM + r] = -1;
        }
    }
    b->n_tiles += placed;
    /* ends of the main word: cross words of perpendicular placements there changed */
    const uint8_t *ml = &b->letter[dir][l * DIM];
    int lo = start, hi = start + n - 1;
    while (lo > 0 && ml[lo - 1]) lo--;
    while (hi < DIM - 1 && ml[hi + 1]) hi++;
    if (lo > 0) compute_cross(b, 1 - dir, lo - 1, l);
    if (hi < DIM - 1) compute_cross(b, 1 - dir, hi + 1, l);
    /* ends of each new tile's perpendicular run: cross words of parallel placements changed */
    for (int k = 0; k < n; k++) {
        if (!tiles[k]) continue;
        int p = start + k;
        const uint8_t *pl = &b->letter[1 - dir][p * DIM];
        int a = l, z = l;
        while (a > 0 && pl[a - 1]) a--;
        while (z < DIM - 1 && pl[z + 1]) z++;
        if (a > 0) compute_cross(b, dir, a - 1, p);
        if (z < DIM - 1) compute_cross(b, dir, z + 1, p);
    }
    return 0;
}

/* ------------------------------------------------------------------ anagram index */

static uint64_t letter_key(unsigned t)
{
    uint64_t z = 0x9E3779B97F4A7C15ULL * (t + 1);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline uint64_t sig_fix(uint64_t s)
{
    return s ? s : 1;
}

static inline uint32_t sig_slot(uint64_t s, uint32_t mask)
{
    return (uint32_t)(s >> 32 ^ s) & mask;
}

static int anag_contains(const AnagramIndex *a, uint64_t s)
{
    s = sig_fix(s);
    for (uint32_t i = sig_slot(s, a->mask);; i = (i + 1) & a->mask) {
        if (a->slots[i] == s) return 1;
        if (!a->slots[i]) return 0;
    }
}

typedef struct {
    const uint32_t *kwg;
    uint64_t keys[64];
    int lo, hi;
    uint64_t *sigs;
    size_t n, cap;
    int err;
} AnagBuild;

static void anag_collect(AnagBuild *A, uint32_t list, int depth, uint64_t sig)
{
    for (uint32_t i = list; list; i++) {
        uint32_t e = A->kwg[i];
        uint64_t s = sig + A->keys[KWG_TILE(e)];
        if ((e & KWG_ACC_BIT) && depth + 1 >= A->lo) {
            if (A->n == A->cap) {
                size_t nc = A->cap ? A->cap * 2 : 4096;
                uint64_t *ns = realloc(A->sigs, nc * sizeof(uint64_t));
                if (!ns) {
                    A->err = 1;
                    return;
                }
                A->sigs = ns;
                A->cap = nc;
            }
            A->sigs[A->n++] = sig_fix(s);
        }
        if (depth + 1 < A->hi && KWG_ARC(e)) anag_collect(A, KWG_ARC(e), depth + 1, s);
        if (e & KWG_END_BIT) break;
    }
}

static AnagramIndex *anagrams_build(const CBoard *b)
{
    AnagBuild A;
    memset(&A, 0, sizeof A);
    A.kwg = b->kwg;
    A.lo = b->bingo_tiles;
    A.hi = DIM;
    for (int t = 0; t < 64; t++) A.keys[t] = letter_key((unsigned)t);
    anag_collect(&A, KWG_ARC(b->kwg[0]), 0, 0);
    AnagramIndex *a = NULL;
    if (!A.err) a = calloc(1, sizeof *a);
    if (a) {
        uint32_t size = 1024;
        while (size < A.n * 2 + 1) size <<= 1;
        a->slots = calloc(size, sizeof(uint64_t));
        a->mask = size - 1;
        a->refs = 1;
        if (!a->slots) {
            free(a);
            a = NULL;
        }
    }
    if (a) {
        memcpy(a->keys, A.keys, sizeof a->keys);
        for (size_t k = 0; k < A.n; k++) {
            uint64_t s = A.sigs[k];
            uint32_t i = sig_slot(s, a->mask);
            while (a->slots[i] && a->slots[i] != s) i = (i + 1) & a->mask;
            a->slots[i] = s;
        }
    }
    free(A.sigs);
    return a;
}

void anagrams_release(AnagramIndex *a)
{
    if (a && --a->refs == 0) {
        free(a->slots);
        free(a);
    }
}

/* ------------------------------------------------------------------ generation */

typedef struct {
    const uint32_t *kwg;
    const CBoard *b;
    /* current line */
    int dir, line;
    const uint8_t *bl, *fv, *lm, *wm;
    const uint64_t *xs;
    const int16_t *xc;
    int anchor, ll, rr, right_open, left_end; /* ll inclusive, rr exclusive limits of the placement */
    uint8_t word[16];
    /* rack */
    uint8_t rack[64];  /* natural tiles left */
    uint8_t rack0[64]; /* natural tiles of the whole rack */
    int nblank, ntiles, rack_total, blanks0;
    uint64_t rmask, rmask0, all;
    const uint8_t *values;
    int vals[16]; /* rack tile values, descending (blanks 0) */
    /* bingo feasibility for top-k bounds: can the rack plus the board tiles a placement goes through
     * make a word (any order)? Unknown (always yes) when bingo_index is NULL. */
    const AnagramIndex *bingo_index;
    uint64_t bingo_sig;    /* signature of the rack's natural tiles */
    const uint64_t *keys;  /* per-letter signature keys (all 0 without an index) */
    int flags, bingo_tiles, bingo_bonus;
    /* output */
    GenBuf *buf;
    int err;
    int top;      /* k in top-k mode (heap in use), 0 otherwise */
    int32_t thr;  /* k-th best so far, INT32_MIN until k placements were seen */
    size_t heap_n;
} Gen;

static int grow_out(Gen *g)
{
    GenBuf *B = g->buf;
    if (g->top && g->thr != INT32_MIN) {
        /* drop what fell below the current k-th best first */
        size_t m = 0;
        for (size_t i = 0; i < B->out_n; i++) {
            int32_t sc;
            memcpy(&sc, B->out + i * REC_SIZE, 4);
            if (sc >= g->thr) {
                if (m != i) memcpy(B->out + m * REC_SIZE, B->out + i * REC_SIZE, REC_SIZE);
                m++;
            }
        }
        B->out_n = m;
        if (m < B->out_cap / 2) return 0;
    }
    size_t nc = B->out_cap ? B->out_cap * 2 : 4096;
    uint8_t *no = realloc(B->out, nc * REC_SIZE);
    if (!no) {
        g->err = -1;
        return -1;
    }
    B->out = no;
    B->out_cap = nc;
    return 0;
}

static void heap_add(Gen *g, int32_t score)
{
    int32_t *h = g->buf->heap;
    size_t k = (size_t)g->top;
    if (g->heap_n < k) {
        size_t i = g->heap_n++;
        while (i > 0) {
            size_t p = (i - 1) / 2;
            if (h[p] <= score) break;
            h[i] = h[p];
            i = p;
        }
        h[i] = score;
        if (g->heap_n == k) g->thr = h[0];
    } else if (score > h[0]) {
        size_t i = 0;
        for (;;) {
            size_t c = 2 * i + 1;
            if (c >= k) break;
            if (c + 1 < k && h[c + 1] < h[c]) c++;
            if (h[c] >= score) break;
            h[i] = h[c];
            i = c;
        }
        h[i] = score;
        g->thr = h[0];
    }
}

static void emit(Gen *g, int s, int e, int32_t score, int placed, unsigned blanks)
{
    if (g->top) {
        if (score < g->thr) return;
        heap_add(g, score);
    }
    GenBuf *B = g->buf;
    if (B->out_n == B->out_cap && grow_out(g)) return;
    uint8_t *r = B->out + B->out_n++ * REC_SIZE;
    int len = e - s + 1;
    memcpy(r, &score, 4);
    r[4] = (uint8_t)(g->dir ? s : g->line);
    r[5] = (uint8_t)(g->dir ? g->line : s);
    r[6] = (uint8_t)g->dir;
    r[7] = (uint8_t)len;
    memcpy(r + 8, g->word + s, (size_t)len);
    if (len < 15) memset(r + 8 + len, 0, (size_t)(15 - len));
    for (; blanks; blanks &= blanks - 1) r[8 + __builtin_ctz(blanks) - s] |= BLANK_BIT;
    r[23] = (uint8_t)placed;
}

/* Blank designations of one letter path. The search places every letter as if natural and only
 * counts how many blanks the path needs; here each way of choosing which placed squares hold blanks
 * becomes its own placement: at most `left` more blanks, at least need[t] on letter t. */
typedef struct {
    int n;
    uint8_t pos[DIM], letter[DIM];
    int loss[DIM]; /* score lost when the tile on pos[i] is a blank */
    int need[64];  /* blanks still required on each letter */
    int needed;    /* sum of need */
} Desig;

static void designate(Gen *g, Desig *D, int i, int left, int s, int e, int32_t score, int placed, unsigned blanks)
{
    if (D->needed > left) return;
    if (i == D->n || left == 0) {
        if (D->needed == 0) emit(g, s, e, score, placed, blanks);
        return;
    }
    /* natural tile on pos[i]: only if the letter's forced blanks still fit on its later squares */
    unsigned t = D->letter[i];
    int later = 0;
    for (int j = i + 1; j < D->n; j++) later += D->letter[j] == t;
    if (D->need[t] <= later) designate(g, D, i + 1, left, s, e, score, placed, blanks);
    /* blank on pos[i] */
    int had = D->need[t] > 0;
    D->need[t] -= had;
    D->needed -= had;
    designate(g, D, i + 1, left - 1, s, e, score - D->loss[i], placed, blanks | 1u << D->pos[i]);
    D->need[t] += had;
    D->needed += had;
}

static void record(Gen *g, int s, int e, int ms, int wmul, int xt, int placed)
{
    if ((g->flags & FLAG_USE_ALL) && placed != g->rack_total) return;
    /* a single tile with a horizontal word is reported as horizontal */
    if (g->dir && placed == 1) {
        int p1 = g->anchor; /* the anchor, or with a tile there the one empty square of the word */
        if (g->bl[p1]) {
            for (p1 = s; g->bl[p1]; p1++) {}
        }
        if (g->xc[p1] >= 0) return;
    }
    int32_t score = ms * wmul + xt + (placed == g->bingo_tiles ? g->bingo_bonus : 0);
    if (g->blanks0 == 0) {
        emit(g, s, e, score, placed, 0);
        return;
    }
    if (g->top && score < g->thr) return; /* every designation scores at most the all-natural one */
    Desig D;
    D.n = 0;
    D.needed = g->blanks0 - g->nblank;
    for (int p = s; p <= e; p++) {
        if (g->bl[p]) continue;
        unsigned t = g->word[p];
        D.pos[D.n] = (uint8_t)p;
        D.letter[D.n] = (uint8_t)t;
        D.loss[D.n] = g->values[t] * g->lm[p] * (wmul + (g->xc[p] >= 0 ? g->wm[p] : 0));
        D.n++;
    }
    int uses[64];
    for (int i = 0; i < D.n; i++) uses[D.letter[i]] = 0;
    for (int i = 0; i < D.n; i++) uses[D.letter[i]]++;
    for (int i = 0; i < D.n; i++) {
        unsigned t = D.letter[i];
        D.need[t] = uses[t] > g->rack0[t] ? uses[t] - g->rack0[t] : 0;
    }
    designate(g, &D, 0, g->blanks0, s, e, score, placed, 0);
}

static void gen_left(Gen *g, int pos, uint32_t list, int ms, int wmul, int xt, int placed);
static void gen_right(Gen *g, int pos, uint32_t list, int ms, int wmul, int xt, int placed);

/* Can the search go on to square p: a board tile, or a rack tile the cross-set allows? */
static inline int can_fill(const Gen *g, int p)
{
    return g->bl[p] || (g->ntiles && (g->xs[p] & (g->nblank ? g->all : g->rmask)));
}

/* Square pos (<= anchor) now holds the tile of entry e. */
static inline void go_left(Gen *g, int pos, uint32_t e, int ms, int wmul, int xt, int placed)
{
    int noleft = pos == 0 || !g->bl[pos - 1];
    if ((e & KWG_ACC_BIT) && noleft && g->right_open && pos < g->anchor && placed)
        record(g, pos, g->anchor, ms, wmul, xt, placed);
    uint32_t child = KWG_ARC(e);
    if (!child) return;
    if (pos > g->ll && can_fill(g, pos - 1)) gen_left(g, pos - 1, child, ms, wmul, xt, placed);
    if (noleft && g->anchor + 1 < g->rr && can_fill(g, g->anchor + 1)) {
        uint32_t sep = g->kwg[child];
        if (KWG_TILE(sep) == 0 && KWG_ARC(sep)) {
            g->left_end = pos;
            gen_right(g, g->anchor + 1, KWG_ARC(sep), ms, wmul, xt, placed);
        }
    }
}

static inline void go_right(Gen *g, int pos, uint32_t e, int ms, int wmul, int xt, int placed)
{
    int noright = pos == DIM - 1 || !g->bl[pos + 1];
    if ((e & KWG_ACC_BIT) && noright) record(g, g->left_end, pos, ms, wmul, xt, placed);
    uint32_t child = KWG_ARC(e);
    if (!child) return;
    if (pos + 1 < g->rr && can_fill(g, pos + 1)) gen_right(g, pos + 1, child, ms, wmul, xt, placed);
}

/* Fills square pos from the sibling list at index list: the board's tile if there is one, else each rack
 * letter (a blank when no natural tile is left) that the cross-set allows and the list continues with. */
static inline __attribute__((always_inline)) void gen_square(Gen *g, int pos, uint32_t list, int ms, int wmul,
                                                             int xt, int placed, int right)
{
    const uint32_t *kwg = g->kwg;
    unsigned b = g->bl[pos];
    if (b) {
        /* follow the whole run of board tiles: no word can end inside it */
        const uint8_t *bl = g->bl;
        for (;;) {
            uint32_t i = list, e;
            for (;; i++) {
                e = kwg[i];
                unsigned t = KWG_TILE(e);
                if (t == b) break;
                if (t > b || (e & KWG_END_BIT)) return;
            }
            ms += g->fv[pos];
            int next = right ? pos + 1 : pos - 1;
            if (next < 0 || next >= DIM || !(b = bl[next])) {
                if (right) go_right(g, pos, e, ms, wmul, xt, placed);
                else go_left(g, pos, e, ms, wmul, xt, placed);
                return;
            }
            if (!(list = KWG_ARC(e))) return;
            pos = next;
        }
    }
    uint64_t avail = g->xs[pos] & (g->nblank ? g->all : g->rmask);
    if (!avail) return;
    unsigned top_t = 63 - (unsigned)__builtin_clzll(avail);
    int lm = g->lm[pos], wm = g->wm[pos], xc = g->xc[pos];
    int nwmul = wmul * wm;
    for (uint32_t i = list;; i++) {
        uint32_t e = kwg[i];
        unsigned t = KWG_TILE(e);
        if (t > top_t) break;
        if ((avail >> t) & 1) {
            __builtin_prefetch(&kwg[KWG_ARC(e)]); /* the child list is read right after this bookkeeping */
            int v = lm * g->values[t];
            int nxt = xc >= 0 ? xt + (xc + v) * wm : xt;
            g->ntiles--;
            g->word[pos] = (uint8_t)t;
            if (g->rack[t]) {
                if (!--g->rack[t]) g->rmask &= ~(1ULL << t);
                if (right) go_right(g, pos, e, ms + v, nwmul, nxt, placed + 1);
                else go_left(g, pos, e, ms + v, nwmul, nxt, placed + 1);
                if (!g->rack[t]++) g->rmask |= 1ULL << t;
            } else {
                g->nblank--;
                if (right) go_right(g, pos, e, ms + v, nwmul, nxt, placed + 1);
                else go_left(g, pos, e, ms + v, nwmul, nxt, placed + 1);
                g->nblank++;
            }
            g->ntiles++;
        }
        if (e & KWG_END_BIT) break;
    }
}

static void gen_left(Gen *g, int pos, uint32_t list, int ms, int wmul, int xt, int placed)
{
    gen_square(g, pos, list, ms, wmul, xt, placed, 0);
}

static void gen_right(Gen *g, int pos, uint32_t list, int ms, int wmul, int xt, int placed)
{
    gen_square(g, pos, list, ms, wmul, xt, placed, 1);
}

static void setup_line(Gen *g, int d, int l)
{
    const CBoard *b = g->b;
    int base = l * DIM;
    g->dir = d;
    g->line = l;
    g->bl = &b->letter[d][base];
    g->fv = &b->face[d][base];
    g->lm = &b->lm[d][base];
    g->wm = &b->wm[d][base];
    g->xs = &b->xset[d][base];
    g->xc = &b->xscore[d][base];
    memset(g->word, 0, sizeof g->word);
}

/* All-placements search units of the current line, after wolges: each placement is generated from the last
 * tile of the rightmost run of board tiles it goes through (the search walks that run first, so the left part
 * is constrained by the board from the start; the placement may reach left up to the edge but stops before the
 * square next to the run on the right); a placement that goes through no run is generated from its rightmost
 * square with a cross word, kept one square away from the runs. Returns the count; u holds (anchor, ll, rr). */
static int line_units(const Gen *g, uint8_t (*u)[3])
{
    int n = 0;
    const uint8_t *bl = g->bl;
    if (g->b->n_tiles == 0) {
        int crow = g->b->centre / DIM, ccol = g->b->centre % DIM;
        if (g->line == (g->dir ? ccol : crow)) {
            u[n][0] = (uint8_t)(g->dir ? crow : ccol);
            u[n][1] = 0;
            u[n++][2] = DIM;
        }
        return n;
    }
    uint64_t avail = g->nblank ? g->all : g->rmask;
    int lm = DIM;
    for (;;) {
        int rr = lm;
        while (lm > 0 && !bl[lm - 1]) lm--;
        if (lm > 0) {
            u[n][0] = (uint8_t)(lm - 1);
            u[n][1] = 0;
            u[n++][2] = (uint8_t)rr;
        }
        int lo = lm + (lm > 0);
        for (int a = rr - 1; a >= lo; a--) {
            if (g->xc[a] < 0) continue;
            if (rr - lo < 2) break;
            if (g->xs[a] & avail) {
                u[n][0] = (uint8_t)a;
                u[n][1] = (uint8_t)lo;
                u[n++][2] = (uint8_t)rr;
            }
            rr = a; /* placements through a come from a */
        }
        do {
            if (--lm <= 1) return n;
        } while (bl[lm]);
    }
}

static void run_unit(Gen *g, int a, int ll, int rr)
{
    g->anchor = a;
    g->ll = ll;
    g->rr = rr;
    g->right_open = a == DIM - 1 || !g->bl[a + 1];
    gen_left(g, a, KWG_ARC(g->kwg[1]), 0, 1, 0, 0);
}

/* Could the rack's tiles together with board tiles of signature through form a word? */
static int bingo_possible(const Gen *g, uint64_t through)
{
    const AnagramIndex *a = g->bingo_index;
    if (!a) return 1;
    uint64_t s = g->bingo_sig + through;
    if (g->blanks0 == 0) return anag_contains(a, s);
    for (int y = 1; y <= g->b->n_letters; y++) { /* one blank */
        if (anag_contains(a, s + a->keys[y])) return 1;
    }
    return 0;
}

/* Highest value of a rack tile allowed by a cross-set (a blank, worth 0, fits any non-empty set). */
static inline int cap_of(const Gen *g, uint64_t xset)
{
    int cap = 0;
    for (uint64_t m = xset & g->rmask0; m; m &= m - 1) {
        int v = g->values[__builtin_ctzll(m)];
        if (v > cap) cap = v;
    }
    return cap;
}

/* Upper bound for a search unit of line_units (anchor a, limits ll..rr-1), or -1 when nothing can be placed.
 * Ignores the lexicon; keeps cross-set feasibility per square, board edges, the limits and the rack size. The
 * score of a placement is
 *   (B + sum v*lm) * W + sum_cross (xc + v*lm) * wm  [+ bingo]
 * = fixed + sum v_q * lm_q * (W + [cross_q] wm_q), maximised by pairing the largest tile values with the largest
 * multipliers (bigger extents never lower it). For each number k of tiles left of the anchor (the nearest fillable empty squares,
 * with the board runs they join), the widest right extent the rack allows. */
static int32_t shadow_unit(Gen *g, int a, int ll, int rr)
{
    const uint8_t *bl = g->bl, *fv = g->fv, *lmv = g->lm, *wmv = g->wm;
    const int16_t *xc = g->xc;
    const uint64_t *xs = g->xs;
    uint64_t avail = g->nblank ? g->all : g->rmask;
    int R = g->ntiles; /* playable tiles */
    if (R == 0) return -1;
    int use_all = g->flags & FLAG_USE_ALL;
    if (use_all && R != g->rack_total) return -1;
    int core = 0, Bcore = 0, p;
    uint64_t score_sig = 0;
    if (bl[a]) {
        for (p = a; p >= 0 && bl[p]; p--) {
            Bcore += fv[p];
            score_sig += g->keys[bl[p]];
        }
    } else {
        if (!(xs[a] & avail)) return -1;
        core = 1;
        p = a - 1;
    }
    int lsq[16], lB[17], nl = 0;
    uint64_t lS[17];
    lB[0] = 0;
    lS[0] = 0;
    while (nl < R - core && nl < 15 && p >= ll && (xs[p] & avail)) {
        int B = lB[nl];
        uint64_t S = lS[nl];
        lsq[nl] = p--;
        for (; p >= 0 && bl[p]; p--) {
            B += fv[p];
            S += g->keys[bl[p]];
        }
        nl++;
        lB[nl] = B;
        lS[nl] = S;
    }
    int rsq[16], nr = 0;
    for (int q = a + 1; q < rr && nr < R - core && nr < 15 && (xs[q] & avail); q++) rsq[nr++] = q;

    int32_t best = -1;
    for (int k = 0; k <= nl; k++) {
        int m = R - core - k;
        if (m < 0) break;
        if (m > nr) {
            if (use_all) continue;
            m = nr;
        }
        int P = core + k + m;
        if (P == 0) continue;
        int sq[16], n = 0;
        if (core) sq[n++] = a;
        for (int q = 0; q < k; q++) sq[n++] = lsq[q];
        for (int q = 0; q < m; q++) sq[n++] = rsq[q];
        int W = 1;
        for (int q = 0; q < n; q++) W *= wmv[sq[q]];
        int fixed = (Bcore + lB[k]) * W;
        int mm[16], c[16];
        for (int q = 0; q < n; q++) {
            int s = sq[q];
            int mult = W, cap = g->vals[0];
            if (xc[s] >= 0) {
                fixed += xc[s] * wmv[s];
                mult += wmv[s];
                cap = cap_of(g, xs[s]);
            }
            mult *= lmv[s];
            int r = q;
            while (r > 0 && mm[r - 1] < mult) {
                mm[r] = mm[r - 1];
                c[r] = c[r - 1];
                r--;
            }
            mm[r] = mult;
            c[r] = cap;
        }
        int32_t bound = fixed;
        unsigned taken = 0;
        int left = n;
        for (int t = 0; t < R && t < 16 && left; t++) {
            int v = g->vals[t];
            for (int q = 0; q < n; q++) {
                if (!(taken >> q & 1) && c[q] >= v) {
                    taken |= 1u << q;
                    bound += mm[q] * v;
                    left--;
                    break;
                }
            }
        }
        if (P >= g->bingo_tiles && bingo_possible(g, score_sig + lS[k])) bound += g->bingo_bonus;
        if (bound > best) best = bound;
    }
    return best;
}

typedef struct {
    int32_t bound;
    uint8_t d, l, a, ll, rr;
} Unit;

static int unit_cmp(const void *x, const void *y)
{
    int32_t a = ((const Unit *)x)->bound, b = ((const Unit *)y)->bound;
    return (a < b) - (a > b);
}

static int rec_cmp(const void *x, const void *y)
{
    int32_t a, b;
    memcpy(&a, x, 4);
    memcpy(&b, y, 4);
    return (a < b) - (a > b);
}

#define HEAP_MAX 65536

int cb_generate(CBoard *b, GenBuf *buf, const uint8_t *rack, int top, int flags)
{
    Gen g;
    memset(&g, 0, sizeof g);
    g.kwg = b->kwg;
    g.b = b;
    g.all = b->all_letters;
    g.values = b->values;
    g.flags = flags;
    g.bingo_tiles = b->bingo_tiles;
    g.bingo_bonus = b->bingo_bonus;
    g.buf = buf;
    g.thr = INT32_MIN;
    static const uint64_t no_keys[64];
    g.keys = no_keys;
    buf->out_n = 0;

    g.nblank = rack[0];
    g.blanks0 = rack[0];
    g.ntiles = rack[0];
    int per_value[256] = {0};
    per_value[0] = rack[0];
    int unplayable = 0; /* natural tiles of letters without tiles: they count in the rack, never on the board */
    for (int t = 1; t <= b->n_letters; t++) {
        if (b->tileless >> t & 1) {
            unplayable += rack[t];
            continue;
        }
        g.rack[t] = g.rack0[t] = rack[t];
        g.ntiles += rack[t];
        if (rack[t]) g.rmask |= 1ULL << t;
        per_value[b->values[t]] += rack[t];
    }
    g.rack_total = g.ntiles + unplayable;
    g.rmask0 = g.rmask;
    /* the 16 highest tile values, descending (no placement takes more than 15 tiles) */
    for (int v = 255, nv = 0; v >= 0 && nv < 16; v--) {
        for (int k = 0; k < per_value[v] && nv < 16; k++) g.vals[nv++] = v;
    }
    if (g.ntiles == 0 || !KWG_ARC(b->kwg[1])) return 0;

    if (top > 0 && top <= HEAP_MAX) {
        if (buf->heap_cap < (size_t)top) {
            int32_t *h = realloc(buf->heap, (size_t)top * sizeof(int32_t));
            if (!h) return -1;
            buf->heap = h;
            buf->heap_cap = (size_t)top;
        }
        g.top = top;
        if (b->bingo_bonus > 0 && g.rack_total == b->bingo_tiles && rack[0] <= 1) {
            if (!b->anagrams) b->anagrams = anagrams_build(b); /* NULL on failure: bounds stay loose */
            g.bingo_index = b->anagrams;
            if (b->anagrams) {
                g.keys = b->anagrams->keys;
                for (int t = 1; t <= b->n_letters; t++) g.bingo_sig += rack[t] * g.keys[t];
            }
        }
        Unit units[2 * N_SQ];
        uint8_t lunits[2 * DIM][3];
        int nu = 0;
        for (int d = 0; d < 2; d++) {
            for (int l = 0; l < DIM; l++) {
                setup_line(&g, d, l);
                int nlu = line_units(&g, lunits);
                for (int i = 0; i < nlu; i++) {
                    int32_t bound = shadow_unit(&g, lunits[i][0], lunits[i][1], lunits[i][2]);
                    if (bound < 0) continue;
                    Unit *u = &units[nu++];
                    u->bound = bound;
                    u->d = (uint8_t)d;
                    u->l = (uint8_t)l;
                    u->a = lunits[i][0];
                    u->ll = lunits[i][1];
                    u->rr = lunits[i][2];
                }
            }
        }
        qsort(units, (size_t)nu, sizeof(Unit), unit_cmp);
        for (int i = 0; i < nu && !g.err; i++) {
            if (units[i].bound < g.thr) break;
            setup_line(&g, units[i].d, units[i].l);
            run_unit(&g, units[i].a, units[i].ll, units[i].rr);
        }
    } else {
        uint8_t units[2 * DIM][3];
        for (int d = 0; d < 2 && !g.err; d++) {
            for (int l = 0; l < DIM && !g.err; l++) {
                setup_line(&g, d, l);
                int nu = line_units(&g, units);
                for (int i = 0; i < nu; i++) run_unit(&g, units[i][0], units[i][1], units[i][2]);
            }
        }
    }
    if (g.err) return g.err;
    if (top > 0) {
        /* sort descending and cut after the k-th best, keeping ties */
        qsort(buf->out, buf->out_n, REC_SIZE, rec_cmp);
        if (buf->out_n > (size_t)top) {
            int32_t cut, sc;
            memcpy(&cut, buf->out + (size_t)(top - 1) * REC_SIZE, 4);
            size_t n = (size_t)top;
            while (n < buf->out_n) {
                memcpy(&sc, buf->out + n * REC_SIZE, 4);
                if (sc < cut) break;
                n++;
            }
            buf->out_n = n;
        }
    }
    return 0;
}

void genbuf_free(GenBuf *buf)
{
    free(buf->out);
    free(buf->heap);
    buf->out = NULL;
    buf->heap = NULL;
    buf->out_cap = buf->heap_cap = 0;
    buf->out_n = 0;
}
