/* KWG builder: DAWG + GADDAG in one flat uint32 array (docs/ENGINE.md).
 *
 * Method
 *   1. Sort the words (radix sort on the first 10 letters, then ties) and drop duplicates.
 *   2. DAWG: build the trie incrementally over the sorted words, finishing a node as soon as the
 *      next word leaves it. A finished node's sibling list is interned entry by entry from its
 *      last entry, as (tile, accepts, child list, next entry) in one hash table, so equal lists
 *      and equal list tails are stored once. Equal sub-automata therefore get equal ids
 *      (minimization by hash-consing, bottom-up).
 *   3. Every trie node is a prefix p of some word; record (p, its DAWG list, p is a word).
 *   4. GADDAG: every path is rev(p) [0 suffix] for a prefix p. After "rev(p) 0" the remaining
 *      language is exactly the DAWG's language below p, so the separator entry points straight at
 *      the DAWG list of p. Only the reversed prefixes are left to build: sort them and build
 *      their trie the same way, into the same table (so GADDAG and DAWG share states).
 *   5. Lay out: every list that some entry points to must be contiguous. The longest lists are
 *      chosen first; a list that is the tail of a chosen one points into it. Chosen lists are placed
 *      breadth-first from the GADDAG root, then the DAWG root.
 */
#include "core.h"

#include <stdlib.h>
#include <string.h>

#if defined(__linux__)
#include <sys/mman.h>
#endif

typedef struct {
    const uint8_t *p;
    uint32_t n;
    uint32_t aux; /* prefix records: dawg list id << 1 | accepts */
} Str;

/* ------------------------------------------------------------------ sorting */

static inline unsigned key_at(const Str *s, uint32_t d, int rev)
{
    if (d >= s->n) return 0;
    return rev ? s->p[s->n - 1 - d] : s->p[d];
}

static int str_cmp_from(const Str *a, const Str *b, uint32_t d, int rev)
{
    uint32_t m = a->n < b->n ? a->n : b->n;
    if (!rev) {
        for (; d < m; d++) {
            if (a->p[d] != b->p[d]) return (int)a->p[d] - (int)b->p[d];
        }
    } else {
        for (; d < m; d++) {
            unsigned x = a->p[a->n - 1 - d], y = b->p[b->n - 1 - d];
            if (x != y) return (int)x - (int)y;
        }
    }
    return (a->n > b->n) - (a->n < b->n);
}

static void insertion_sort(Str *a, size_t n, uint32_t d, int rev)
{
    for (size_t i = 1; i < n; i++) {
        Str x = a[i];
        size_t j = i;
        while (j > 0 && str_cmp_from(&a[j - 1], &x, d, rev) > 0) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = x;
    }
}

/* MSD radix sort on keys 0 (end of string) .. 63. tmp has room for n items. */
static void msd_sort(Str *a, Str *tmp, size_t n, uint32_t d, int rev)
{
    for (;;) {
        if (n < 32) {
            insertion_sort(a, n, d, rev);
            return;
        }
        size_t cnt[64];
        memset(cnt, 0, sizeof cnt);
        for (size_t i = 0; i < n; i++) cnt[key_at(&a[i], d, rev)]++;
        /* one bucket only: go one level deeper without moving anything */
        int one = -1;
        for (int k = 0; k < 64; k++) {
            if (cnt[k] == n) one = k;
        }
        if (one == 0) return; /* all ended: equal */
        if (one > 0) {
            d++;
            continue;
        }
        size_t start[64], s = 0;
        for (int k = 0; k < 64; k++) {
            start[k] = s;
            s += cnt[k];
        }
        size_t fill[64];
        memcpy(fill, start, sizeof fill);
        for (size_t i = 0; i < n; i++) tmp[fill[key_at(&a[i], d, rev)]++] = a[i];
        memcpy(a, tmp, n * sizeof(Str));
        for (int k = 1; k < 64; k++) {
            if (cnt[k] > 1) msd_sort(a + start[k], tmp, cnt[k], d + 1, rev);
        }
        return;
    }
}

/* Sorts by the first 10 letters packed into a 60-bit key (6 bits a letter, 0 past the end: integer order is
 * string order) with an LSD radix sort that reads each string once, then sorts runs of equal keys from
 * letter 10 on. Keys sit next to the indices, so the passes stream through memory. */
typedef struct {
    uint64_t key;
    uint64_t idx;
} KeyIdx;

_Static_assert(sizeof(KeyIdx) == sizeof(Str), "the key array doubles as a string array");

#define KEY_LETTERS 10
#define DIGIT_BITS 12
#define DIGITS 5 /* 5 * 12 = 60 bits */

static inline uint64_t pack_key(const Str *x, int rev)
{
    uint64_t k = 0;
    for (uint32_t j = 0; j < KEY_LETTERS; j++) k = k << 6 | key_at(x, j, rev);
    return k;
}

/* Letter j < KEY_LETTERS of a packed key. */
static inline unsigned key_letter(uint64_t key, uint32_t j)
{
    return (unsigned)(key >> (6 * (KEY_LETTERS - 1 - j))) & 63;
}

/* If keys is not NULL, *keys receives the sorted strings' packed keys (malloc'ed, n entries). */
static int sort_strs(Str *v, size_t n, int rev, uint64_t **keys)
{
    if (n < 2) {
        if (keys) {
            *keys = malloc(sizeof(uint64_t));
            if (!*keys) return -1;
            **keys = n ? pack_key(v, rev) : 0;
        }
        return 0;
    }
    KeyIdx *a = malloc(n * sizeof(KeyIdx)), *t = malloc(n * sizeof(KeyIdx));
    size_t *cnt = malloc(((size_t)1 << DIGIT_BITS) * sizeof(size_t));
    if (!a || !t || !cnt) {
        free(a);
        free(t);
        free(cnt);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        a[i].key = pack_key(&v[i], rev);
        a[i].idx = i;
    }
    const size_t nb = (size_t)1 << DIGIT_BITS;
    for (int d = 0; d < DIGITS; d++) {
        int shift = d * DIGIT_BITS;
        memset(cnt, 0, nb * sizeof(size_t));
        for (size_t i = 0; i < n; i++) cnt[a[i].key >> shift & (nb - 1)]++;
        if (cnt[a[0].key >> shift & (nb - 1)] == n) continue; /* one digit value: nothing moves */
        size_t s = 0;
        for (size_t b = 0; b < nb; b++) {
            size_t c = cnt[b];
            cnt[b] = s;
            s += c;
        }
        for (size_t i = 0; i < n; i++) t[cnt[a[i].key >> shift & (nb - 1)]++] = a[i];
        KeyIdx *sw = a;
        a = t;
        t = sw;
    }
    Str *sorted = (Str *)t;
    for (size_t i = 0; i < n; i++) sorted[i] = v[a[i].idx];
    memcpy(v, sorted, n * sizeof(Str));
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && a[j].key == a[i].key) j++;
        if (j - i > 1) msd_sort(v + i, sorted, j - i, KEY_LETTERS, rev);
        i = j;
    }
    free(t);
    free(cnt);
    if (keys) {
        uint64_t *k = (uint64_t *)a; /* k[i] lies at or before a[i]: compacting in place is safe */
        for (size_t i = 0; i < n; i++) k[i] = a[i].key;
        uint64_t *shrunk = realloc(k, n * sizeof(uint64_t));
        *keys = shrunk ? shrunk : k;
    } else {
        free(a);
    }
    return 0;
}

/* ------------------------------------------------------------------ state table */

typedef struct {
    uint32_t child; /* id of the child list's first state, 0 = none */
    uint32_t next;  /* id of the next sibling, 0 = last of its list */
    uint8_t tile;
    uint8_t acc;
} State;

typedef struct {
    State *st;
    uint32_t n, cap;
    uint32_t *ht;
    uint32_t hmask;
    int err;
} Pool;

static inline uint64_t state_hash(unsigned tile, unsigned acc, uint32_t child, uint32_t next)
{
    uint64_t h = ((uint64_t)child << 32 | next) ^ ((uint64_t)(tile << 1 | acc) << 56);
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

/* Hash slots hold 8 bits of the hash above the state id (ids stay below 2^24: each state becomes at least
 * one KWG entry), so a probe rarely reads a state that does not match. */
#define ID_BITS 24
#define ID_MASK 0xFFFFFFu
#define FP(h) ((uint32_t)((h) >> 56) << ID_BITS)

/* The state table and its hash are probed at random: ask for huge pages (fewer TLB misses) where the
 * system offers them on request. A hint only. */
static void advise_huge(void *p, size_t size)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const uintptr_t huge = (uintptr_t)1 << 21;
    uintptr_t lo = ((uintptr_t)p + huge - 1) & ~(huge - 1), hi = ((uintptr_t)p + size) & ~(huge - 1);
    if (hi > lo) madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
    (void)p;
    (void)size;
#endif
}

/* cap: room for states (untouched room costs address space only); expect: states likely needed, which
 * sizes the hash table (it doubles when half full). */
static int pool_init(Pool *P, uint32_t cap, uint32_t expect)
{
    memset(P, 0, sizeof *P);
    if (cap < 1024) cap = 1024;
    P->cap = cap;
    P->st = malloc((size_t)cap * sizeof(State));
    uint32_t hs = 1024;
    while (hs < expect * 2u && hs < cap * 2u) hs <<= 1;
    P->ht = calloc(hs, sizeof(uint32_t));
    P->hmask = hs - 1;
    if (!P->st || !P->ht) return -1;
    advise_huge(P->st, (size_t)cap * sizeof(State));
    advise_huge(P->ht, (size_t)hs * sizeof(uint32_t));
    memset(&P->st[0], 0, sizeof(State)); /* id 0 = no state */
    P->n = 1;
    return 0;
}

static void pool_free(Pool *P)
{
    free(P->st);
    free(P->ht);
}

static int pool_rehash(Pool *P)
{
    uint32_t hs = (P->hmask + 1) * 2;
    uint32_t *ht = calloc(hs, sizeof(uint32_t));
    if (!ht) return -1;
    advise_huge(ht, (size_t)hs * sizeof(uint32_t));
    uint32_t mask = hs - 1;
    for (uint32_t id = 1; id < P->n; id++) {
        State *s = &P->st[id];
        uint64_t h = state_hash(s->tile, s->acc, s->child, s->next);
        uint32_t slot = (uint32_t)h & mask;
        while (ht[slot]) slot = (slot + 1) & mask;
        ht[slot] = FP(h) | id;
    }
    free(P->ht);
    P->ht = ht;
    P->hmask = mask;
    return 0;
}

static uint32_t intern(Pool *P, unsigned tile, unsigned acc, uint32_t child, uint32_t next)
{
    uint64_t h = state_hash(tile, acc, child, next);
    uint32_t slot = (uint32_t)h & P->hmask;
    uint32_t id, v;
    while ((v = P->ht[slot]) != 0) {
        if ((v & ~ID_MASK) == FP(h)) {
            const State *s = &P->st[v & ID_MASK];
            if (s->child == child && s->next == next && s->tile == tile && s->acc == acc) return v & ID_MASK;
        }
        slot = (slot + 1) & P->hmask;
    }
    if (P->n == P->cap) {
        if (P->cap >= KWG_MAX_ENTRIES) {
            P->err = KB_TOOBIG;
            return 0;
        }
        uint32_t nc = P->cap * 2 < KWG_MAX_ENTRIES ? P->cap * 2 : KWG_MAX_ENTRIES;
        State *ns = realloc(P->st, (size_t)nc * sizeof(State));
        if (!ns) {
            P->err = KB_NOMEM;
            return 0;
        }
        P->st = ns;
        P->cap = nc;
        advise_huge(P->st, (size_t)nc * sizeof(State));
    }
    id = P->n++;
    State *s = &P->st[id];
    s->child = child;
    s->next = next;
    s->tile = (uint8_t)tile;
    s->acc = (uint8_t)acc;
    P->ht[slot] = FP(h) | id;
    if ((uint64_t)P->n * 2 > P->hmask) {
        if (pool_rehash(P)) P->err = KB_NOMEM;
    }
    return id;
}

/* ------------------------------------------------------------------ incremental trie */

#define FANOUT 64 /* separator + 63 letters */

typedef struct {
    uint8_t tile, acc;
    uint32_t child;
} PArc;

typedef struct {
    PArc *arcs;     /* (maxlen + 1) * FANOUT */
    uint8_t *narcs; /* per depth */
    uint32_t maxlen;
} Stack;

static int stack_init(Stack *S, uint32_t maxlen)
{
    S->maxlen = maxlen;
    S->arcs = malloc((size_t)(maxlen + 1) * FANOUT * sizeof(PArc));
    S->narcs = calloc(maxlen + 1, 1);
    return (S->arcs && S->narcs) ? 0 : -1;
}

static void stack_free(Stack *S)
{
    free(S->arcs);
    free(S->narcs);
}

/* Interns the node at depth d and returns its list id (0 if it has no arcs). */
static uint32_t finish_node(Pool *P, Stack *S, uint32_t d)
{
    PArc *a = &S->arcs[(size_t)d * FANOUT];
    uint32_t head = 0;
    for (int j = (int)S->narcs[d] - 1; j >= 0; j--) head = intern(P, a[j].tile, a[j].acc, a[j].child, head);
    S->narcs[d] = 0;
    return head;
}

static inline PArc *last_arc(Stack *S, uint32_t d)
{
    return &S->arcs[(size_t)d * FANOUT + S->narcs[d] - 1];
}

static inline PArc *push_arc(Stack *S, uint32_t d, unsigned tile, unsigned acc)
{
    PArc *a = &S->arcs[(size_t)d * FANOUT + S->narcs[d]++];
    a->tile = (uint8_t)tile;
    a->acc = (uint8_t)acc;
    a->child = 0;
    return a;
}

typedef struct {
    Str *v;
    size_t n, cap;
} StrVec;

static int strvec_push(StrVec *V, const uint8_t *p, uint32_t n, uint32_t aux)
{
    if (V->n == V->cap) {
        size_t nc = V->cap ? V->cap * 2 : 4096;
        Str *nv = realloc(V->v, nc * sizeof(Str));
        if (!nv) return -1;
        V->v = nv;
        V->cap = nc;
    }
    V->v[V->n].p = p;
    V->v[V->n].n = n;
    V->v[V->n].aux = aux;
    V->n++;
    return 0;
}

static uint32_t common_prefix(const Str *a, const Str *b)
{
    uint32_t m = a->n < b->n ? a->n : b->n, i = 0;
    while (i < m && a->p[i] == b->p[i]) i++;
    return i;
}

/* DAWG over sorted unique words. Appends one prefix record per trie node to recs. */
static uint32_t build_dawg(Pool *P, Stack *S, const Str *w, size_t nw, StrVec *recs, int *err)
{
    const Str empty = {NULL, 0, 0};
    const Str *prev = &empty;
    for (size_t i = 0; i <= nw; i++) {
        const Str *cur = i < nw ? &w[i] : &empty;
        uint32_t L = i < nw ? common_prefix(prev, cur) : 0;
        for (uint32_t d = prev->n; d > L; d--) {
            uint32_t head = finish_node(P, S, d);
            PArc *in = last_arc(S, d - 1);
            in->child = head;
            if (strvec_push(recs, prev->p, d, head << 1 | in->acc)) {
                *err = KB_NOMEM;
                return 0;
            }
        }
        if (i == nw) break;
        for (uint32_t d = L + 1; d <= cur->n; d++) push_arc(S, d - 1, cur->p[d - 1], d == cur->n);
        prev = cur;
        if (P->err) break;
    }
    return finish_node(P, S, 0);
}

/* GADDAG part before the separator, over prefix records sorted by reversed prefix. keys[i] holds the
 * first letters of record i (sort_strs), so most records are built without reading their (scattered)
 * strings. */
static uint32_t build_gaddag(Pool *P, Stack *S, const Str *r, const uint64_t *keys, size_t nr)
{
    const Str empty = {NULL, 0, 0};
    const Str *prev = &empty;
    uint64_t pkey = 0;
    for (size_t i = 0; i <= nr; i++) {
        const Str *cur = i < nr ? &r[i] : &empty;
        uint64_t ckey = i < nr ? keys[i] : 0;
        uint32_t L = 0;
        if (i < nr) {
            uint64_t x = pkey ^ ckey;
            if (x) {
                L = (uint32_t)(__builtin_clzll(x) - (64 - 6 * KEY_LETTERS)) / 6;
            } else { /* the same first letters: distinct strings, so both go on */
                L = KEY_LETTERS;
                uint32_t m = prev->n < cur->n ? prev->n : cur->n;
                while (L < m && prev->p[prev->n - 1 - L] == cur->p[cur->n - 1 - L]) L++;
            }
        }
        for (uint32_t d = prev->n; d > L; d--) last_arc(S, d - 1)->child = finish_node(P, S, d);
        if (i == nr) break;
        /* L < cur->n: records are distinct and a string sorts before its extensions */
        for (uint32_t d = L + 1; d <= cur->n; d++) {
            unsigned t = d <= KEY_LETTERS ? key_letter(ckey, d - 1) : cur->p[cur->n - d];
            push_arc(S, d - 1, t, 0);
        }
        last_arc(S, cur->n - 1)->acc = cur->aux & 1;
        uint32_t dawg = cur->aux >> 1;
        if (dawg) push_arc(S, cur->n, 0, 0)->child = dawg;
        prev = cur;
        pkey = ckey;
        if (P->err) break;
    }
    return finish_node(P, S, 0);
}

/* ------------------------------------------------------------------ layout */

static int layout(Pool *P, uint32_t dawg_root, uint32_t gaddag_root, uint32_t **out, size_t *out_n)
{
    uint32_t n = P->n;
    int rc = KB_NOMEM;
    uint8_t *clen = malloc(n);
    uint8_t *is_head = calloc(n, 1);
    uint8_t *off = malloc(n);
    uint32_t *rep = calloc(n, sizeof(uint32_t));
    uint32_t *cpos = calloc(n, sizeof(uint32_t));
    uint32_t *heads = NULL, *kwg = NULL;
    if (!clen || !is_head || !off || !rep || !cpos) goto done;
    clen[0] = 0;
    for (uint32_t id = 1; id < n; id++) {
        const State *s = &P->st[id];
        clen[id] = (uint8_t)(clen[s->next] + 1); /* next < id: interned first */
        is_head[s->child] = 1;
    }
    is_head[dawg_root] = 1;
    is_head[gaddag_root] = 1;
    is_head[0] = 0;
    /* 1. Which lists get their own copy: longest first; a list that is the tail of an already chosen
     *    list points into it (rep = the chosen list, off = where it starts in it). */
    size_t cnt[FANOUT + 2];
    memset(cnt, 0, sizeof cnt);
    size_t nheads = 0;
    for (uint32_t id = 1; id < n; id++) {
        if (is_head[id]) {
            cnt[clen[id]]++;
            nheads++;
        }
    }
    heads = malloc((nheads + 2) * sizeof(uint32_t));
    if (!heads) goto done;
    size_t start[FANOUT + 2], s = 0;
    for (int k = FANOUT + 1; k >= 0; k--) {
        start[k] = s;
        s += cnt[k];
    }
    for (uint32_t id = 1; id < n; id++) {
        if (is_head[id]) heads[start[clen[id]]++] = id;
    }
    for (size_t h = 0; h < nheads; h++) {
        uint32_t id = heads[h];
        if (rep[id]) continue;
        uint8_t i = 0;
        for (uint32_t x = id; x; x = P->st[x].next, i++) {
            if (is_head[x] && !rep[x]) {
                rep[x] = id;
                off[x] = i;
            }
        }
    }
    /* 2. Where: breadth-first from the GADDAG root, then the DAWG root, so the lists every search
     *    starts with sit together. heads[] is reused as the queue; is_head 2 = queued. */
    size_t qh = 0, qt = 0;
    uint32_t npos = 2;
    uint32_t roots[2] = {gaddag_root, dawg_root};
    for (int r = 0; r < 2; r++) {
        if (roots[r] && is_head[roots[r]] == 1) {
            is_head[roots[r]] = 2;
            heads[qt++] = roots[r];
        }
        while (qh < qt) {
            uint32_t h = heads[qh++];
            uint32_t c = rep[h];
            if (!cpos[c]) {
                cpos[c] = npos;
                npos += clen[c];
                if (npos > KWG_MAX_ENTRIES) {
                    rc = KB_TOOBIG;
                    goto done;
                }
            }
            for (uint32_t x = h; x; x = P->st[x].next) {
                uint32_t ch = P->st[x].child;
                if (ch && is_head[ch] == 1) {
                    is_head[ch] = 2;
                    heads[qt++] = ch;
                }
            }
        }
    }
    kwg = malloc((size_t)npos * sizeof(uint32_t));
    if (!kwg) goto done;
#define HEAD_POS(h) (cpos[rep[h]] + off[h])
    kwg[0] = KWG_END_BIT | (dawg_root ? HEAD_POS(dawg_root) : 0);
    kwg[1] = KWG_END_BIT | (gaddag_root ? HEAD_POS(gaddag_root) : 0);
    for (uint32_t id = 1; id < n; id++) {
        if (!is_head[id] || rep[id] != id) continue;
        uint32_t p = cpos[id];
        for (uint32_t x = id; x; x = P->st[x].next) {
            const State *st = &P->st[x];
            kwg[p++] = (uint32_t)st->tile << 26 | (st->acc ? KWG_ACC_BIT : 0) | (st->next ? 0 : KWG_END_BIT) |
                       (st->child ? HEAD_POS(st->child) : 0);
        }
    }
#undef HEAD_POS
    *out = kwg;
    *out_n = npos;
    kwg = NULL;
    rc = KB_OK;
done:
    free(clen);
    free(is_head);
    free(off);
    free(rep);
    free(cpos);
    free(heads);
    free(kwg);
    return rc;
}

/* ------------------------------------------------------------------ entry point */

int kwg_build(const uint8_t *words, size_t len, int alphabet_size, uint32_t **out, size_t *out_n,
              size_t *err_pos)
{
    StrVec w = {0}, recs = {0};
    uint64_t *rkeys = NULL;
    Pool P;
    Stack S = {0};
    int rc = KB_NOMEM;
    int pool_ok = 0;
    uint32_t maxlen = 0;
    size_t total = 0; /* letters */

    /* split and validate */
    size_t i = 0;
    while (i < len) {
        size_t j = i;
        while (j < len && words[j]) {
            if (words[j] > alphabet_size) {
                *err_pos = j;
                rc = KB_BADTILE;
                goto done;
            }
            j++;
        }
        if (j > i) {
            if (j - i > KWG_MAX_WORD) {
                *err_pos = i;
                rc = KB_LONGWORD;
                goto done;
            }
            if (strvec_push(&w, words + i, (uint32_t)(j - i), 0)) goto done;
            total += j - i;
            if (j - i > maxlen) maxlen = (uint32_t)(j - i);
        }
        i = j + 1;
    }

    if (sort_strs(w.v, w.n, 0, NULL)) goto done;
    /* dedupe */
    size_t nw = 0;
    for (size_t k = 0; k < w.n; k++) {
        if (nw && w.v[nw - 1].n == w.v[k].n && !memcmp(w.v[nw - 1].p, w.v[k].p, w.v[k].n)) continue;
        w.v[nw++] = w.v[k];
    }

    /* states per letter: ENABLE 0.47, a 3.2M-word Polish list 0.11 */
    if (pool_init(&P, (uint32_t)(total / 2 < 0x1000000 ? total / 2 + 1024 : 0x1000000),
                  (uint32_t)(total / 8 < 0x1000000 ? total / 8 : 0x1000000))) {
        pool_free(&P);
        goto done;
    }
    pool_ok = 1;
    if (stack_init(&S, maxlen)) goto done;

    /* one record per trie node: about a quarter of the letters in real lists (ENABLE: 0.25) */
    recs.cap = total / 4 + 1024;
    recs.v = malloc(recs.cap * sizeof(Str));
    if (!recs.v) goto done;
    int err = 0;
    uint32_t dawg_root = build_dawg(&P, &S, w.v, nw, &recs, &err);
    free(w.v); /* the prefix records point into the input, not here */
    w.v = NULL;
    if (err || P.err) {
        rc = err ? err : P.err;
        goto done;
    }
    if (sort_strs(recs.v, recs.n, 1, &rkeys)) goto done;
    uint32_t gaddag_root = build_gaddag(&P, &S, recs.v, rkeys, recs.n);
    if (P.err) {
        rc = P.err;
        goto done;
    }
    free(recs.v);
    recs.v = NULL;
    free(P.ht);
    P.ht = NULL;
    rc = layout(&P, dawg_root, gaddag_root, out, out_n);
done:
    free(w.v);
    free(recs.v);
    free(rkeys);
    if (pool_ok) pool_free(&P);
    stack_free(&S);
    return rc;
}

/* ------------------------------------------------------------------ checks and walks */

int kwg_check(const uint32_t *kwg, size_t n)
{
    if (n < 2 || n > KWG_MAX_ENTRIES) return -1;
    if (!(kwg[n - 1] & KWG_END_BIT)) return -1; /* every list ends inside the array */
    for (size_t i = 0; i < n; i++) {
        if (KWG_ARC(kwg[i]) >= n) return -1;
    }
    return 0;
}

uint32_t kwg_find(const uint32_t *kwg, uint32_t list, unsigned tile)
{
    if (!list) return 0;
    for (uint32_t i = list;; i++) {
        uint32_t e = kwg[i];
        unsigned t = KWG_TILE(e);
        if (t == tile) return i;
        if (t > tile || (e & KWG_END_BIT)) return 0;
    }
}
