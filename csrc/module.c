/* arbitru._core: Python bindings (CPython C API). See csrc/README.md. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <string.h>

#include "core.h"

static const char KWG_MAGIC[8] = {'A', 'R', 'B', 'K', 'W', 'G', '0', '1'};

/* ------------------------------------------------------------------ kwg buffers */

/* A read-only view of a KWG array held for as long as needed.
 * Accepts the bare array or a .kwg file image (16-byte header). */
typedef struct {
    Py_buffer view;
    int has_view;
    const uint32_t *kwg;
    size_t n;
} KwgRef;

static void kwgref_release(KwgRef *k)
{
    if (k->has_view) PyBuffer_Release(&k->view);
    k->has_view = 0;
    k->kwg = NULL;
    k->n = 0;
}

/* alphabet_size < 0: not checked against a header. Raises and returns -1 on error. */
static int kwgref_get(KwgRef *k, PyObject *obj, int alphabet_size)
{
    memset(k, 0, sizeof *k);
    PyObject *src = obj;
    Py_buffer view;
    if (PyObject_GetBuffer(obj, &view, PyBUF_SIMPLE) < 0) return -1;
    const char *p = view.buf;
    Py_ssize_t len = view.len;
    if (len >= 16 && memcmp(p, KWG_MAGIC, 8) == 0) {
        uint32_t hdr[2];
        memcpy(hdr, p + 8, 8);
        if (alphabet_size >= 0 && (int)hdr[0] != alphabet_size) {
            PyBuffer_Release(&view);
            PyErr_Format(PyExc_ValueError, "kwg header says alphabet size %u, expected %d", hdr[0], alphabet_size);
            return -1;
        }
        if ((uint64_t)hdr[1] * 4 != (uint64_t)(len - 16)) {
            PyBuffer_Release(&view);
            PyErr_SetString(PyExc_ValueError, "kwg header entry count does not match the data length");
            return -1;
        }
        p += 16;
        len -= 16;
    }
    if (len % 4 != 0) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "kwg length is not a multiple of 4");
        return -1;
    }
    if (((uintptr_t)p & 3) != 0 || !view.readonly) {
        /* unaligned, or writable (the array must not change under a board): keep a private copy; bytes data
         * is aligned and read-only */
        PyObject *copy = PyBytes_FromStringAndSize(p, len);
        PyBuffer_Release(&view);
        if (!copy) return -1;
        src = copy;
        int rc = PyObject_GetBuffer(copy, &view, PyBUF_SIMPLE);
        Py_DECREF(copy); /* the view keeps it alive */
        if (rc < 0) return -1;
        p = view.buf;
    }
    (void)src;
    k->view = view;
    k->has_view = 1;
    k->kwg = (const uint32_t *)p;
    k->n = (size_t)len / 4;
    if (kwg_check(k->kwg, k->n)) {
        kwgref_release(k);
        PyErr_SetString(PyExc_ValueError, "not a valid kwg array (bad size or arc index out of range)");
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ module functions */

PyDoc_STRVAR(build_kwg_doc,
             "build_kwg(words, alphabet_size, /)\n--\n\n"
             "Build the KWG (DAWG + GADDAG, both minimized) of a word list.\n\n"
             "words: tile strings (bytes 1..alphabet_size) separated by b'\\x00', any order, duplicates\n"
             "allowed. Returns the uint32 array as little-endian bytes (no file header).");

static PyObject *py_build_kwg(PyObject *self, PyObject *args)
{
    Py_buffer words;
    int alphabet_size;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*i:build_kwg", &words, &alphabet_size)) return NULL;
    if (alphabet_size < 1 || alphabet_size > MAX_LETTERS) {
        PyBuffer_Release(&words);
        PyErr_SetString(PyExc_ValueError, "alphabet_size must be in 1..63");
        return NULL;
    }
    size_t len = (size_t)words.len;
    uint8_t *copy = PyMem_RawMalloc(len ? len : 1);
    if (!copy) {
        PyBuffer_Release(&words);
        return PyErr_NoMemory();
    }
    memcpy(copy, words.buf, len);
    PyBuffer_Release(&words);
    uint32_t *out = NULL;
    size_t out_n = 0, err_pos = 0;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = kwg_build(copy, len, alphabet_size, &out, &out_n, &err_pos);
    Py_END_ALLOW_THREADS
    PyObject *res = NULL;
    if (rc == KB_OK) {
        res = PyBytes_FromStringAndSize((const char *)out, (Py_ssize_t)(out_n * 4));
    } else if (rc == KB_BADTILE) {
        PyErr_Format(PyExc_ValueError, "byte %u at offset %zu is not a tile of a %d-letter alphabet",
                     (unsigned)copy[err_pos], err_pos, alphabet_size);
    } else if (rc == KB_LONGWORD) {
        PyErr_Format(PyExc_ValueError, "the word at offset %zu is longer than %d tiles", err_pos, KWG_MAX_WORD);
    } else if (rc == KB_TOOBIG) {
        PyErr_SetString(PyExc_ValueError, "word list too large for the KWG format (2^24 entries)");
    } else {
        PyErr_NoMemory();
    }
    free(out);
    PyMem_RawFree(copy);
    return res;
}

typedef struct {
    PyObject *list;
    uint8_t buf[256];
} WordsCtx;

static int enum_words(const uint32_t *kwg, uint32_t list, int depth, WordsCtx *ctx)
{
    if (!list || depth >= 255) return 0;
    for (uint32_t i = list;; i++) {
        uint32_t e = kwg[i];
        ctx->buf[depth] = (uint8_t)KWG_TILE(e);
        if (e & KWG_ACC_BIT) {
            PyObject *w = PyBytes_FromStringAndSize((const char *)ctx->buf, depth + 1);
            if (!w || PyList_Append(ctx->list, w) < 0) {
                Py_XDECREF(w);
                return -1;
            }
            Py_DECREF(w);
        }
        if (enum_words(kwg, KWG_ARC(e), depth + 1, ctx) < 0) return -1;
        if (e & KWG_END_BIT) return 0;
    }
}

PyDoc_STRVAR(kwg_words_doc,
             "kwg_words(kwg, alphabet_size=-1, /)\n--\n\n"
             "Every word of the KWG's DAWG, in ascending tile order, as a list of bytes.");

static PyObject *py_kwg_words(PyObject *self, PyObject *args)
{
    PyObject *obj;
    int alphabet_size = -1;
    KwgRef k;
    (void)self;
    if (!PyArg_ParseTuple(args, "O|i:kwg_words", &obj, &alphabet_size)) return NULL;
    if (kwgref_get(&k, obj, alphabet_size) < 0) return NULL;
    WordsCtx ctx;
    ctx.list = PyList_New(0);
    if (ctx.list && enum_words(k.kwg, KWG_ARC(k.kwg[0]), 0, &ctx) < 0) Py_CLEAR(ctx.list);
    kwgref_release(&k);
    return ctx.list;
}

PyDoc_STRVAR(contains_doc, "contains(kwg, word, /)\n--\n\nWhether the tile string word is in the KWG's DAWG.");

static PyObject *py_contains(PyObject *self, PyObject *args)
{
    PyObject *obj;
    Py_buffer word;
    KwgRef k;
    (void)self;
    if (!PyArg_ParseTuple(args, "Oy*:contains", &obj, &word)) return NULL;
    if (kwgref_get(&k, obj, -1) < 0) {
        PyBuffer_Release(&word);
        return NULL;
    }
    const uint8_t *w = word.buf;
    uint32_t list = KWG_ARC(k.kwg[0]), idx = 0;
    int found = word.len > 0;
    for (Py_ssize_t i = 0; i < word.len && found; i++) {
        idx = kwg_find(k.kwg, list, w[i]);
        if (!idx) found = 0;
        else list = KWG_ARC(k.kwg[idx]);
    }
    if (found) found = (k.kwg[idx] & KWG_ACC_BIT) != 0;
    kwgref_release(&k);
    PyBuffer_Release(&word);
    return PyBool_FromLong(found);
}

/* ------------------------------------------------------------------ Board */

typedef struct {
    PyObject_HEAD
    KwgRef ref;
    CBoard b;
    GenBuf buf;
    int busy;
} BoardObject;

static PyTypeObject BoardType;

static int check_idle(BoardObject *self)
{
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "Board is in use by another thread");
        return -1;
    }
    if (!self->ref.kwg) {
        PyErr_SetString(PyExc_RuntimeError, "Board is not initialised");
        return -1;
    }
    return 0;
}

static void Board_dealloc(BoardObject *self)
{
    anagrams_release(self->b.anagrams);
    self->b.anagrams = NULL;
    kwgref_release(&self->ref);
    genbuf_free(&self->buf);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int get_exact(PyObject *obj, Py_ssize_t want, uint8_t *dst, const char *what)
{
    Py_buffer v;
    if (PyObject_GetBuffer(obj, &v, PyBUF_SIMPLE) < 0) return -1;
    if (v.len != want) {
        PyErr_Format(PyExc_ValueError, "%s must have length %zd, got %zd", what, want, v.len);
        PyBuffer_Release(&v);
        return -1;
    }
    memcpy(dst, v.buf, (size_t)want);
    PyBuffer_Release(&v);
    return 0;
}

static int Board_init(BoardObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"kwg", "alphabet_size", "letter_scores", "letter_mult", "word_mult",
                             "bingo_tiles", "bingo_bonus", "centre", "tileless", NULL};
    PyObject *kwg, *scores, *lmo, *wmo;
    int n, bingo_tiles = 7, bingo_bonus = 50, centre = CENTRE;
    unsigned long long tileless = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OiOOO|iiiK:Board", kwlist, &kwg, &n, &scores, &lmo, &wmo,
                                     &bingo_tiles, &bingo_bonus, &centre, &tileless))
        return -1;
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "Board is in use by another thread");
        return -1;
    }
    if (n < 1 || n > MAX_LETTERS) {
        PyErr_SetString(PyExc_ValueError, "alphabet_size must be in 1..63");
        return -1;
    }
    if (centre < 0 || centre >= N_SQ) {
        PyErr_SetString(PyExc_ValueError, "centre must be a square in 0..224");
        return -1;
    }
    if (tileless & 1) {
        PyErr_SetString(PyExc_ValueError, "tileless: bit 0 (the blank) must be clear");
        return -1;
    }
    if (bingo_tiles < 0 || bingo_bonus < 0 || bingo_bonus > 100000) {
        PyErr_SetString(PyExc_ValueError, "bingo_tiles and bingo_bonus must be >= 0 (bonus <= 100000)");
        return -1;
    }
    uint8_t values[64] = {0}, lm[N_SQ], wm[N_SQ];
    if (get_exact(scores, n + 1, values, "letter_scores") < 0) return -1;
    if (get_exact(lmo, N_SQ, lm, "letter_mult") < 0) return -1;
    if (get_exact(wmo, N_SQ, wm, "word_mult") < 0) return -1;
    for (int s = 0; s < N_SQ; s++) {
        if (lm[s] < 1 || lm[s] > 9 || wm[s] < 1 || wm[s] > 9) {
            PyErr_SetString(PyExc_ValueError, "multipliers must be in 1..9");
            return -1;
        }
    }
    /* scores are int32: the worst placement on this layout must fit (the standard one is far below) */
    double line_product = 1, max_lm = 1, max_wm = 1, max_value = 0;
    for (int line = 0; line < DIM; line++) {
        double row = 1, col = 1;
        for (int i = 0; i < DIM; i++) {
            row *= wm[line * DIM + i];
            col *= wm[i * DIM + line];
        }
        if (row > line_product) line_product = row;
        if (col > line_product) line_product = col;
    }
    for (int s = 0; s < N_SQ; s++) {
        if (lm[s] > max_lm) max_lm = lm[s];
        if (wm[s] > max_wm) max_wm = wm[s];
    }
    for (int t = 1; t <= n; t++) {
        if (values[t] > max_value) max_value = values[t];
    }
    double word = DIM * max_value * max_lm;
    if (line_product * word + DIM * word * max_wm + bingo_bonus > 2147483647.0) {
        PyErr_SetString(PyExc_ValueError, "premium layout and letter values could overflow 32-bit scores");
        return -1;
    }
    KwgRef ref;
    if (kwgref_get(&ref, kwg, n) < 0) return -1;
    kwgref_release(&self->ref);
    self->ref = ref;
    CBoard *b = &self->b;
    anagrams_release(b->anagrams);
    memset(b, 0, sizeof *b);
    b->kwg = ref.kwg;
    b->kwg_n = ref.n;
    b->n_letters = n;
    b->all_letters = ((n == 63) ? ~0ULL : ((1ULL << (n + 1)) - 1)) & ~1ULL;
    memcpy(b->values, values, sizeof values);
    b->values[0] = 0;
    b->bingo_tiles = bingo_tiles;
    b->bingo_bonus = bingo_bonus;
    b->centre = centre;
    b->tileless = (uint64_t)tileless & b->all_letters;
    cb_init_premiums(b, lm, wm);
    uint8_t empty[N_SQ] = {0};
    int bad;
    cb_set_squares(b, empty, &bad);
    return 0;
}

static PyObject *Board_set_squares(BoardObject *self, PyObject *arg)
{
    uint8_t sq[N_SQ];
    int bad;
    if (check_idle(self) < 0) return NULL;
    if (get_exact(arg, N_SQ, sq, "squares") < 0) return NULL;
    if (cb_set_squares(&self->b, sq, &bad) < 0) {
        PyErr_Format(PyExc_ValueError, "invalid tile code %u on square %d", (unsigned)sq[bad], bad);
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *Board_squares(BoardObject *self, PyObject *unused)
{
    uint8_t sq[N_SQ];
    (void)unused;
    if (check_idle(self) < 0) return NULL;
    cb_get_squares(&self->b, sq);
    return PyBytes_FromStringAndSize((const char *)sq, N_SQ);
}

static PyObject *Board_place(BoardObject *self, PyObject *args)
{
    int row, col, dir;
    Py_buffer tiles;
    if (check_idle(self) < 0) return NULL;
    if (!PyArg_ParseTuple(args, "iiiy*:place", &row, &col, &dir, &tiles)) return NULL;
    int rc = tiles.len > DIM ? -2 : cb_place(&self->b, row, col, dir, tiles.buf, (int)tiles.len);
    PyBuffer_Release(&tiles);
    if (rc == 0) Py_RETURN_NONE;
    static const char *msg[] = {"",
                                "bad coordinates or direction (row, col in 0..14, dir 0 or 1, tiles not empty)",
                                "placement runs off the board",
                                "a 0 (played-through) tile over an empty square",
                                "a tile over an occupied square",
                                "invalid tile code",
                                "placement places no tile"};
    PyErr_SetString(PyExc_ValueError, msg[-rc]);
    return NULL;
}

static PyObject *Board_generate(BoardObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"rack", "top", "flags", NULL};
    Py_buffer rackv;
    int top = 0, flags = 0;
    if (check_idle(self) < 0) return NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "y*|ii:generate", kwlist, &rackv, &top, &flags)) return NULL;
    int n = self->b.n_letters;
    if (rackv.len != n + 1) {
        PyErr_Format(PyExc_ValueError, "rack must have length %d (blanks, then one count per letter)", n + 1);
        PyBuffer_Release(&rackv);
        return NULL;
    }
    uint8_t rack[64] = {0};
    memcpy(rack, rackv.buf, (size_t)n + 1);
    PyBuffer_Release(&rackv);
    if (top < 0) {
        PyErr_SetString(PyExc_ValueError, "top must be >= 0");
        return NULL;
    }
    if (flags & ~FLAG_USE_ALL) {
        PyErr_SetString(PyExc_ValueError, "unknown flag");
        return NULL;
    }
    int rc;
    self->busy = 1;
    Py_BEGIN_ALLOW_THREADS
    rc = cb_generate(&self->b, &self->buf, rack, top, flags);
    Py_END_ALLOW_THREADS
    self->busy = 0;
    if (rc) return PyErr_NoMemory();
    return PyBytes_FromStringAndSize((const char *)self->buf.out, (Py_ssize_t)(self->buf.out_n * REC_SIZE));
}

static int square_arg(PyObject *args, const char *fmt, int *row, int *col, int *dir)
{
    if (!PyArg_ParseTuple(args, fmt, row, col, dir)) return -1;
    if (*row < 0 || *row >= DIM || *col < 0 || *col >= DIM || (*dir != 0 && *dir != 1)) {
        PyErr_SetString(PyExc_ValueError, "row, col must be in 0..14 and dir 0 or 1");
        return -1;
    }
    return 0;
}

static PyObject *Board_cross_set(BoardObject *self, PyObject *args)
{
    int row, col, dir;
    if (check_idle(self) < 0 || square_arg(args, "iii:cross_set", &row, &col, &dir) < 0) return NULL;
    int idx = dir == 0 ? row * DIM + col : col * DIM + row;
    return PyLong_FromUnsignedLongLong(self->b.xset[dir][idx]);
}

static PyObject *Board_cross_score(BoardObject *self, PyObject *args)
{
    int row, col, dir;
    if (check_idle(self) < 0 || square_arg(args, "iii:cross_score", &row, &col, &dir) < 0) return NULL;
    int idx = dir == 0 ? row * DIM + col : col * DIM + row;
    return PyLong_FromLong(self->b.xscore[dir][idx]);
}

static PyObject *Board_copy(BoardObject *self, PyObject *unused)
{
    (void)unused;
    if (check_idle(self) < 0) return NULL;
    BoardObject *c = (BoardObject *)BoardType.tp_alloc(&BoardType, 0);
    if (!c) return NULL;
    if (PyObject_GetBuffer(self->ref.view.obj, &c->ref.view, PyBUF_SIMPLE) < 0) {
        Py_DECREF(c);
        return NULL;
    }
    c->ref.has_view = 1;
    c->ref.kwg = self->ref.kwg; /* same exporter, same memory */
    c->ref.n = self->ref.n;
    c->b = self->b;
    if (c->b.anagrams) c->b.anagrams->refs++;
    return (PyObject *)c;
}

static PyObject *Board_get_alphabet_size(BoardObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromLong(self->b.n_letters);
}

static PyObject *Board_get_tiles(BoardObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromLong(self->b.n_tiles);
}

static PyObject *Board_get_bingo_tiles(BoardObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromLong(self->b.bingo_tiles);
}

static PyObject *Board_get_centre(BoardObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromLong(self->b.centre);
}

static PyObject *Board_get_tileless(BoardObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromUnsignedLongLong(self->b.tileless);
}

static PyObject *Board_get_bingo_bonus(BoardObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromLong(self->b.bingo_bonus);
}

static PyMethodDef Board_methods[] = {
    {"set_squares", (PyCFunction)Board_set_squares, METH_O,
     "set_squares($self, squares, /)\n--\n\nLoad 225 squares (row-major) and compute cross-sets from scratch."},
    {"squares", (PyCFunction)Board_squares, METH_NOARGS, "squares($self, /)\n--\n\nThe 225 squares, row-major."},
    {"place", (PyCFunction)Board_place, METH_VARARGS,
     "place($self, row, col, dir, tiles, /)\n--\n\nPut a placement on the board (tiles: one code per square of the "
     "main word, 0 = already on the board) and update the cross-sets it changes. Checks squares, not words."},
    {"generate", (PyCFunction)(void (*)(void))Board_generate, METH_VARARGS | METH_KEYWORDS,
     "generate($self, /, rack, top=0, flags=0)\n--\n\nPlacements as 24-byte records (see csrc/README.md)."},
    {"cross_set", (PyCFunction)Board_cross_set, METH_VARARGS,
     "cross_set($self, row, col, dir, /)\n--\n\nBit mask of letters a dir-placement may put on the square (0 if occupied)."},
    {"cross_score", (PyCFunction)Board_cross_score, METH_VARARGS,
     "cross_score($self, row, col, dir, /)\n--\n\nFace value of the cross word's existing tiles, -1 if none."},
    {"copy", (PyCFunction)Board_copy, METH_NOARGS, "copy($self, /)\n--\n\nAn independent board sharing the kwg buffer."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef Board_getset[] = {
    {"alphabet_size", (getter)Board_get_alphabet_size, NULL, "number of letters", NULL},
    {"tile_count", (getter)Board_get_tiles, NULL, "tiles on the board", NULL},
    {"bingo_tiles", (getter)Board_get_bingo_tiles, NULL, "tiles placed that earn the bonus", NULL},
    {"bingo_bonus", (getter)Board_get_bingo_bonus, NULL, "bonus for placing bingo_tiles tiles", NULL},
    {"centre", (getter)Board_get_centre, NULL, "square (row-major) the first placement must cover", NULL},
    {"tileless", (getter)Board_get_tileless, NULL, "mask of the letters without tiles (only a blank plays them)",
     NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject BoardType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "arbitru._core.Board",
    .tp_basicsize = sizeof(BoardObject),
    .tp_itemsize = 0,
    .tp_dealloc = (destructor)Board_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Board(kwg, alphabet_size, letter_scores, letter_mult, word_mult, bingo_tiles=7, bingo_bonus=50)\n"
              "--\n\nA 15x15 board with cross-sets, over a KWG word automaton.",
    .tp_methods = Board_methods,
    .tp_getset = Board_getset,
    .tp_init = (initproc)Board_init,
    .tp_new = PyType_GenericNew,
};

static PyMethodDef module_methods[] = {
    {"build_kwg", py_build_kwg, METH_VARARGS, build_kwg_doc},
    {"kwg_words", py_kwg_words, METH_VARARGS, kwg_words_doc},
    {"contains", py_contains, METH_VARARGS, contains_doc},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef core_module = {PyModuleDef_HEAD_INIT, "arbitru._core",
                                         "arbitru native core: KWG builder and placement generator.", -1,
                                         module_methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__core(void)
{
    if (PyType_Ready(&BoardType) < 0) return NULL;
    PyObject *m = PyModule_Create(&core_module);
    if (!m) return NULL;
    Py_INCREF(&BoardType);
    if (PyModule_AddObject(m, "Board", (PyObject *)&BoardType) < 0) {
        Py_DECREF(&BoardType);
        Py_DECREF(m);
        return NULL;
    }
    if (PyModule_AddIntConstant(m, "FLAG_USE_ALL", FLAG_USE_ALL) < 0 ||
        PyModule_AddIntConstant(m, "RECORD_SIZE", REC_SIZE) < 0 ||
        PyModule_AddIntConstant(m, "BLANK", BLANK_BIT) < 0 ||
        PyModule_AddIntConstant(m, "H", 0) < 0 || PyModule_AddIntConstant(m, "V", 1) < 0 ||
        PyModule_AddObject(m, "KWG_MAGIC", PyBytes_FromStringAndSize(KWG_MAGIC, 8)) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
