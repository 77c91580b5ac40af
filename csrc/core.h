/* arbitru native core: shared declarations (no Python here).
 *
 * Tile encoding, board layout and the KWG format follow docs/ENGINE.md.
 */
#ifndef ARBITRU_CORE_H
#define ARBITRU_CORE_H

#include <stddef.h>
#include <stdint.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "arbitru._core reads the KWG array in place and needs a little-endian machine"
#endif

/* ---- KWG entry fields (docs/ENGINE.md) ---- */
#define KWG_ARC(e) ((e) & 0xFFFFFFu)
#define KWG_END_BIT 0x1000000u
#define KWG_ACC_BIT 0x2000000u
#define KWG_TILE(e) ((e) >> 26)
#define KWG_MAX_ENTRIES 0x1000000u

#define N_SQ 225
#define DIM 15
#define CENTRE 112
#define MAX_LETTERS 63
#define BLANK_BIT 0x80

/* ---- builder (kwg_build.c) ---- */
enum {
    KB_OK = 0,
    KB_NOMEM = 1,
    KB_BADTILE = 2, /* a byte outside 1..alphabet_size; *err_pos is its offset */
    KB_TOOBIG = 3,  /* more than 2^24 entries */
    KB_LONGWORD = 4 /* a word longer than KWG_MAX_WORD; *err_pos is its offset */
};
#define KWG_MAX_WORD 255

/* words: tile strings separated by 0 bytes. On KB_OK, *out is a malloc'ed array of *out_n entries. */
int kwg_build(const uint8_t *words, size_t len, int alphabet_size, uint32_t **out, size_t *out_n,
              size_t *err_pos);

/* Checks that every arc index is in range and that sibling lists stay inside the array.
 * Returns 0 when the array is usable by the walkers below. */
int kwg_check(const uint32_t *kwg, size_t n);

/* ---- board and move generation (movegen.c) ---- */

/* Multiset signatures of the words of bingo_tiles..15 letters (sum of per-letter random keys), to rule
 * out bingos in top-k bounds. A collision only makes a bound looser. Shared by copies. */
typedef struct {
    int refs;
    uint32_t mask;
    uint64_t *slots; /* 0 = empty */
    uint64_t keys[64];
} AnagramIndex;

/* One orientation of the board, "line-major": index = line * 15 + pos.
 * Orientation 0 (H): line = row, pos = col.  Orientation 1 (V): line = col, pos = row.
 * xset/xscore at [d] describe placing a tile on the square in a direction-d placement,
 * so the cross word runs in the other direction. */
typedef struct {
    const uint32_t *kwg;
    size_t kwg_n;
    int n_letters;
    uint64_t all_letters;
    uint8_t values[64];       /* letter values, [0] = blank = 0 */
    uint8_t lm[2][N_SQ];      /* letter multiplier */
    uint8_t wm[2][N_SQ];      /* word multiplier */
    uint8_t sq[2][N_SQ];      /* square content (ENGINE.md encoding) */
    uint8_t letter[2][N_SQ];  /* sq without the blank bit, 0 = empty */
    uint8_t face[2][N_SQ];    /* face value of the tile on the square (blank = 0) */
    uint64_t xset[2][N_SQ];   /* letters allowed by the cross word; 0 on occupied squares */
    int16_t xscore[2][N_SQ];  /* sum of the cross word's existing tiles, -1 = no cross word */
    int bingo_tiles, bingo_bonus;
    int n_tiles;              /* tiles on the board */
    int centre;               /* square (row-major) the first placement must cover */
    uint64_t tileless;        /* letters without tiles (G-6): natural ones on a rack are never placed */
    AnagramIndex *anagrams;   /* built on the first top-k call that can use it; NULL before */
} CBoard;

/* Scratch space owned by one Board object (reused across calls). */
typedef struct {
    uint8_t *out;
    size_t out_n, out_cap; /* records */
    int32_t *heap;
    size_t heap_cap;
} GenBuf;

#define REC_SIZE 24
#define FLAG_USE_ALL 1

void cb_init_premiums(CBoard *b, const uint8_t *lm, const uint8_t *wm);
/* squares in row-major order; returns -1 and sets *bad to the square on an invalid code. */
int cb_set_squares(CBoard *b, const uint8_t *squares, int *bad);
void cb_get_squares(const CBoard *b, uint8_t *out);
/* dir 0 = H, 1 = V. Returns 0, or a negative error code (see movegen.c). */
int cb_place(CBoard *b, int row, int col, int dir, const uint8_t *tiles, int n);
/* rack: n_letters + 1 counts. Returns 0, or -1 on allocation failure. Records in buf->out.
 * May build b->anagrams (the only change to b). */
int cb_generate(CBoard *b, GenBuf *buf, const uint8_t *rack, int top, int flags);
void anagrams_release(AnagramIndex *a);
void genbuf_free(GenBuf *buf);

/* Walk helpers shared with the module. */
/* Index of the entry for tile in the list starting at index list, 0 if absent (list 0 = empty). */
uint32_t kwg_find(const uint32_t *kwg, uint32_t list, unsigned tile);

#endif
