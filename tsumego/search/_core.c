/* The compiled search core: df-pn over the game of docs/rules.md.
 *
 * The same search as the reference engine (tsumego/search/engine.py), written for the
 * machine: the board is cropped to the rectangle holding every stone and the region (plus a
 * ring of empty points), and sets of points are fixed-size bitboards of up to MAXW 64-bit
 * words with one padding column per row, so that a dilation is four shifts. Tables are
 * preallocated arrays of fixed-size entries with a replacement policy; nothing is allocated
 * per node. The exact sets of arrangements a stored proof creates are kept as Bloom filters
 * (a false hit only makes a lookup refuse a proof: the search then proves it again).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef uint64_t u64;
typedef int64_t i64;

#define MAXW 6          /* words of a set of points: a 19x19 crop with its padding is 380 bits */
#define MAXP (MAXW * 64)
#define CW 6            /* words of a set of stone counts (0..361) */
#define BLW 16          /* words of a Bloom filter of created arrangements (1,024 bits) */
#define PASS (-1)
#define BLACK 1
#define WHITE 2
#define NO_RANGE (1 << 30)
#define INF ((i64)1000000000000000LL)
#define BIG (INF - 1)
#define NO_DEP (1 << 30)
#define PAIR (-2)
#define NEG (-(1 << 20))
#define POS (1 << 20)
#define MAXDEPTH 20000
#define EXPMUL 4 /* the expansion cache's bytes, per table entry */
#define KILL_EYE 1    /* ChildInfo.kill: the eye-space table's */
#define KILL_LADDER 2 /* ChildInfo.kill: a ladder's, perhaps */

enum { STOP_NONE = 0, STOP_NODES, STOP_TIME, STOP_INTERRUPT, STOP_DEPTH, STOP_ALONE,
       STOP_MEMORY, STOP_ASKED };

typedef struct { u64 w[MAXW]; } B;
typedef struct { u64 w[CW]; } CM;

/* ---------------------------------------------------------------------------------------- */
/* sets of points                                                                            */
/* ---------------------------------------------------------------------------------------- */



static inline void bz(B *a) { memset(a, 0, sizeof(B)); }
static inline int bis0(const B *a, int nw) {
    for (int i = 0; i < nw; i++) if (a->w[i]) return 0;
    return 1;
}
static inline int beq(const B *a, const B *b, int nw) {
    for (int i = 0; i < nw; i++) if (a->w[i] != b->w[i]) return 0;
    return 1;
}
static inline int bhas(const B *a, int p) { return (int)((a->w[p >> 6] >> (p & 63)) & 1); }
static inline void bset(B *a, int p) { a->w[p >> 6] |= (u64)1 << (p & 63); }
static inline void bclr(B *a, int p) { a->w[p >> 6] &= ~((u64)1 << (p & 63)); }
static inline int bcount(const B *a, int nw) {
    int n = 0;
    for (int i = 0; i < nw; i++) n += __builtin_popcountll(a->w[i]);
    return n;
}
static inline int binter(const B *a, const B *b, int nw) {
    for (int i = 0; i < nw; i++) if (a->w[i] & b->w[i]) return 1;
    return 0;
}
/* are there at most k points in both a and b? */
static inline int binter_count_le(const B *a, const B *b, int nw, int k) {
    int n = 0;
    for (int i = 0; i < nw; i++) n += __builtin_popcountll(a->w[i] & b->w[i]);
    return n <= k;
}
/* the lowest point of a, -1 if none */
static inline int blow(const B *a, int nw) {
    for (int i = 0; i < nw; i++) if (a->w[i]) return (i << 6) + __builtin_ctzll(a->w[i]);
    return -1;
}
/* the next point of a at p or after, -1 if none */
static inline int bnext(const B *a, int p, int nw) {
    int i = p >> 6;
    if (i >= nw) return -1;
    u64 x = a->w[i] & (~(u64)0 << (p & 63));
    while (!x) {
        if (++i >= nw) return -1;
        x = a->w[i];
    }
    return (i << 6) + __builtin_ctzll(x);
}
#define FOR_BITS(p, set, nw) for (int p = blow(&(set), nw); p >= 0; p = bnext(&(set), p + 1, nw))

/* ---------------------------------------------------------------------------------------- */
/* geometry of the crop                                                                      */
/* ---------------------------------------------------------------------------------------- */

typedef struct {
    int size;             /* the board's size */
    int x0, y0, w, h, s;  /* the crop: its origin, width, height and row stride (w + 1) */
    int nw;               /* words in use */
    int npts;             /* bits in use (h * s) */
    B valid;              /* the crop's points (not the padding) */
    int board_of[MAXP];   /* crop bit -> board point (-1 for padding) */
    int crop_of[19 * 19]; /* board point -> crop bit (-1 outside the crop) */
    int16_t nl[MAXP][4];  /* the edge neighbours of each point, nn[p] of them */
    uint8_t nn[MAXP];
    u64 zob[MAXP][3];     /* Zobrist keys by colour */
} Geo;

/* m plus its edge neighbours, within the crop: one pass over the words, each shifted by one
 * point and by one row (s < 64) with the bits that cross from the words beside it (out may
 * be m) */
static inline void dilate(const Geo *g, B *out, const B *m) {
    int nw = g->nw, s = g->s;
    u64 prev = 0, cur = m->w[0];
    for (int i = 0; i < nw; i++) {
        u64 next = i + 1 < nw ? m->w[i + 1] : 0;
        u64 v = cur | cur << 1 | prev >> 63 | cur >> 1 | next << 63
                | cur << s | prev >> (64 - s) | cur >> s | next << (64 - s);
        out->w[i] = v & g->valid.w[i];
        prev = cur;
        cur = next;
    }
}
/* the points with an edge neighbour in m */
static inline void spread(const Geo *g, B *out, const B *m) {
    int nw = g->nw, s = g->s;
    u64 prev = 0, cur = m->w[0];
    for (int i = 0; i < nw; i++) {
        u64 next = i + 1 < nw ? m->w[i + 1] : 0;
        u64 v = cur << 1 | prev >> 63 | cur >> 1 | next << 63
                | cur << s | prev >> (64 - s) | cur >> s | next << (64 - s);
        out->w[i] = v & g->valid.w[i];
        prev = cur;
        cur = next;
    }
}
/* the edge-connected part of within reached from seed */
static inline void flood(const Geo *g, B *out, const B *seed, const B *within) {
    int nw = g->nw;
    B m, n;
    for (int i = 0; i < nw; i++) m.w[i] = seed->w[i] & within->w[i];
    for (int i = nw; i < MAXW; i++) m.w[i] = 0;
    for (;;) {
        dilate(g, &n, &m);
        int same = 1;
        for (int i = 0; i < nw; i++) {
            n.w[i] &= within->w[i];
            if (n.w[i] != m.w[i]) same = 0;
        }
        if (same) break;
        m = n;
    }
    *out = m;
}
/* the block of within through seed if it has no liberty in empty, else empty set (returns 0) */
static inline int dead_block(const Geo *g, B *out, const B *seed, const B *within,
                             const B *empty) {
    int nw = g->nw;
    B m = *seed, n;
    for (;;) {
        dilate(g, &n, &m);
        if (binter(&n, empty, nw)) return 0;
        int same = 1;
        for (int i = 0; i < nw; i++) {
            n.w[i] &= within->w[i];
            if (n.w[i] != m.w[i]) same = 0;
        }
        if (same) {
            *out = m;
            return 1;
        }
        m = n;
    }
}

/* ---------------------------------------------------------------------------------------- */
/* the board                                                                                 */
/* ---------------------------------------------------------------------------------------- */

typedef struct {
    B st[3];  /* st[BLACK], st[WHITE] */
    u64 hash;
} Board;

static inline void empty_of(const Geo *g, const Board *b, B *out) {
    for (int i = 0; i < g->nw; i++)
        out->w[i] = g->valid.w[i] & ~(b->st[1].w[i] | b->st[2].w[i]);
    for (int i = g->nw; i < MAXW; i++) out->w[i] = 0;
}
static inline int stone_count(const Geo *g, const Board *b) {
    int n = 0;
    for (int i = 0; i < g->nw; i++) n += __builtin_popcountll(b->st[1].w[i] | b->st[2].w[i]);
    return n;
}

/* Does point q have an empty neighbour (neither colour's stone)? */
static inline int has_empty_nbr(const Geo *g, const Board *b, int q) {
    for (int k = 0; k < g->nn[q]; k++) {
        int r = g->nl[q][k];
        if (!bhas(&b->st[1], r) && !bhas(&b->st[2], r)) return 1;
    }
    return 0;
}

/* Play color at empty p: 1 and the captured stones in *cap, or 0 for a suicide (the board
 * then unchanged). A neighbouring block is flooded only when the stone next to p has no empty
 * neighbour of its own. */
static int play(const Geo *g, Board *b, int p, int color, B *cap) {
    int nw = g->nw, opc = 3 - color;
    B *own = &b->st[color], *opp = &b->st[opc], empty, one, blk;
    int have_empty = 0;
    bset(own, p);
    bz(cap);
    int any = 0;
    for (int k = 0; k < g->nn[p]; k++) {
        int q = g->nl[p][k];
        if (!bhas(opp, q) || bhas(cap, q) || has_empty_nbr(g, b, q)) continue;
        if (!have_empty) {
            empty_of(g, b, &empty);
            have_empty = 1;
        }
        bz(&one);
        bset(&one, q);
        if (dead_block(g, &blk, &one, opp, &empty)) {
            for (int i = 0; i < nw; i++) cap->w[i] |= blk.w[i];
            any = 1;
        }
    }
    u64 h = b->hash ^ g->zob[p][color];
    if (any) {
        for (int i = 0; i < nw; i++) opp->w[i] &= ~cap->w[i];
        FOR_BITS(q, *cap, nw) h ^= g->zob[q][opc];
    } else if (!has_empty_nbr(g, b, p)) {
        if (!have_empty) empty_of(g, b, &empty);
        bz(&one);
        bset(&one, p);
        if (dead_block(g, &blk, &one, own, &empty)) {
            bclr(own, p);
            return 0;
        }
    }
    b->hash = h;
    return 1;
}

/* ---------------------------------------------------------------------------------------- */
/* the tables' memory, kept across the engines of a process                                  */
/* ---------------------------------------------------------------------------------------- */

/* A new engine's tables are fresh pages, which the kernel maps and zeroes on first touch: an
 * engine allocates some 20 MiB of caches and counters and a small solve touches a few MiB of
 * them, so such a solve spent most of its time in page faults. A block of 64 KiB to 16 MiB
 * that an engine frees is kept (up to POOL_BYTES in all) and handed to the next request of
 * the same size and kind. What the new engine finds in it is what a fresh block would give:
 *   BLK_RAW     the engine writes before it reads (no clearing needed);
 *   BLK_ZERO    cleared with memset (small tables, or ones used rarely);
 *   BLK_KEYED   a cache whose entries are told apart by their keys, each cache's keys xored
 *               with a salt of its own (new_salt): another engine's entries are misses, as
 *               empty slots are, so it is not cleared. The slot of a key is that of the
 *               unsalted key, so the search is the same as with a fresh cache;
 *   BLK_PATTERN the shape patterns' counters, which their engine clears before it frees them
 *               (pattern_clear: only the slots it counted).
 * Larger blocks (the grown tables of a long search) go back to the system: their faults are a
 * small part of a long search, and keeping them would raise the process's peak memory. Every
 * call holds the GIL. */
enum { BLK_RAW, BLK_ZERO, BLK_KEYED_BOOL, BLK_KEYED_VALS, BLK_KEYED_CHILD, BLK_KEYED_EXP,
       BLK_KEYED_EYE, BLK_PATTERN };
#define POOL_MIN ((size_t)64 << 10)
#define POOL_MAX ((size_t)16 << 20)
#define POOL_BYTES ((size_t)64 << 20)
#define POOL_SLOTS 32
#define BLK_HEAD 64 /* a block's size and kind are kept in front of it */

typedef struct { size_t size; int kind; } BlkHead;
static struct { char *b; size_t size; int kind; } pool[POOL_SLOTS];
static int pool_n;
static size_t pool_bytes;

/* size bytes of the kind: from the pool when it holds such a block, else fresh (zeroed
 * unless BLK_RAW) */
static void *blk_alloc(size_t size, int kind) {
    if (size >= POOL_MIN && size <= POOL_MAX)
        for (int i = pool_n - 1; i >= 0; i--)
            if (pool[i].size == size && pool[i].kind == kind) {
                char *b = pool[i].b;
                pool[i] = pool[--pool_n];
                pool_bytes -= size;
                if (kind == BLK_ZERO) memset(b + BLK_HEAD, 0, size);
                return b + BLK_HEAD;
            }
    char *b = kind == BLK_RAW ? malloc(size + BLK_HEAD) : calloc(1, size + BLK_HEAD);
    if (!b) return NULL;
    ((BlkHead *)b)->size = size;
    ((BlkHead *)b)->kind = kind;
    return b + BLK_HEAD;
}

static void blk_free(void *p) {
    if (!p) return;
    char *b = (char *)p - BLK_HEAD;
    size_t size = ((BlkHead *)b)->size;
    if (size < POOL_MIN || size > POOL_MAX) { free(b); return; }
    while (pool_n > 0 && (pool_n == POOL_SLOTS || pool_bytes + size > POOL_BYTES)) {
        free(pool[0].b);
        pool_bytes -= pool[0].size;
        pool[0] = pool[--pool_n];
    }
    pool[pool_n].b = b;
    pool[pool_n].size = size;
    pool[pool_n++].kind = ((BlkHead *)b)->kind;
    pool_bytes += size;
}

/* splitmix64: the next of a sequence of well-mixed 64-bit numbers from the state *x */
static u64 splitmix(u64 *x) {
    *x += 0x9e3779b97f4a7c15ULL;
    u64 z = *x;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* a cache's salt: distinct for every cache of the process */
static u64 new_salt(void) {
    static u64 n;
    u64 z = splitmix(&n);
    return z ? z : 1;
}

/* ---------------------------------------------------------------------------------------- */
/* small caches by arrangement: direct-mapped, the key kept to tell entries apart            */
/* ---------------------------------------------------------------------------------------- */

typedef struct {
    u64 *keys;        /* salted (BLK_KEYED) */
    uint8_t *vals;
    size_t mask;
    u64 salt;
} BoolCache;

static int bc_init(BoolCache *c, size_t n) {
    size_t cap = 1024;
    while (cap < n) cap <<= 1;
    c->keys = blk_alloc(cap * sizeof(u64), BLK_KEYED_BOOL);
    c->vals = blk_alloc(cap, BLK_KEYED_VALS);
    c->salt = new_salt();
    c->mask = cap - 1;
    return c->keys && c->vals;
}
static void bc_free(BoolCache *c) {
    blk_free(c->keys);
    blk_free(c->vals);
    c->keys = NULL;
    c->vals = NULL;
}
/* the cached answer (0 or 1), or -1 */
static inline int bc_get(const BoolCache *c, u64 k) {
    size_t i = (size_t)(k ^ (k >> 29)) & c->mask;
    if (c->vals[i] && c->keys[i] == (k ^ c->salt)) return c->vals[i] - 1;
    return -1;
}
static inline void bc_put(BoolCache *c, u64 k, int v) {
    size_t i = (size_t)(k ^ (k >> 29)) & c->mask;
    c->keys[i] = k ^ c->salt;
    c->vals[i] = (uint8_t)(v + 1);
}

/* what an expansion knows of a play's child, a function of its arrangement and the mover */
typedef struct {
    u64 key;          /* child hash ^ side key of the mover (0: empty slot) */
    u64 forced;       /* the arrangement of the mover's opponent's forced win next, 0 if none */
    i64 est_phi, est_delta;
    int32_t count;    /* the child's stone count (NO_RANGE: a capture of the target) */
    int32_t forced_count;
    int8_t win;       /* the winner the play fixes statically, 0 if none */
    int8_t kill;      /* KILL_EYE: the eye-space table's kill (eye_win); KILL_LADDER: a
                       * ladder may kill, read when the search selects the child
                       * (ladder_selected); 0 none. Checked against the path either way */
    int8_t libs;      /* the target's liberties in the child, at most 3 (0: captured): a
                       * feature of the play's pattern, a function of the child alone */
} ChildInfo;

typedef struct {
    ChildInfo *slots; /* keys salted (BLK_KEYED) */
    size_t mask;
    u64 salt;
} ChildCache;

/* The slot of the child cache for key (a child's arrangement ^ the mover's side key) */
static inline ChildInfo *child_slot(const ChildCache *cc, u64 key) {
    return &cc->slots[(size_t)(key ^ (key >> 29)) & cc->mask];
}

/* Whether the slot holds key's entry. Keys are stored salted: another engine's entries,
 * left in a block the pool hands on, are misses (key 0 is never a child's) */
static inline int child_holds(const ChildCache *cc, const ChildInfo *slot, u64 key) {
    return key && slot->key == (key ^ cc->salt);
}

/* key's entry, stored in its slot (info's key set, salted) */
static inline void child_store(ChildCache *cc, ChildInfo *slot, u64 key, ChildInfo *info) {
    info->key = key ^ cc->salt;
    *slot = *info;
}

/* expansions by (arrangement ^ side key): each slot holds a node's children, as many as the
 * region has points plus the pass */
typedef struct {
    u64 key;
    int32_t n;
} ExpHead;
typedef struct {
    u64 hash, forced;
    int32_t est_phi, est_delta;
    int16_t move, cnt, forced_cnt;
    int8_t win, kill;
} ExpChild;
typedef struct {
    ExpHead *heads;
    ExpChild *kids;   /* slot i's children at kids[i * width] */
    size_t mask;
    int width;
    u64 salt;         /* of the heads' keys (BLK_KEYED) */
} ExpCache;

/* Whether the head holds key's expansion. Keys are stored salted: another engine's heads,
 * left in a block the pool hands on, are misses */
static inline int exp_holds(const ExpCache *x, const ExpHead *hd, u64 key) {
    return hd->key == (key ^ x->salt) && hd->n > 0;
}

/* the head now holds key's expansion of n children */
static inline void exp_store(const ExpCache *x, ExpHead *hd, u64 key, int n) {
    hd->key = key ^ x->salt;
    hd->n = n;
}

/* ---------------------------------------------------------------------------------------- */
/* tables                                                                                    */
/* ---------------------------------------------------------------------------------------- */

/* the arrangements (and pair states) a proof creates: a stone-count range and a Bloom
 * filter of their keys, or unknown. The filter is read (and kept) only while the set is
 * known and holds something (n > 0): an empty set's range is empty (lo > hi), so a check
 * against the path never reaches it, and most sets never pay for clearing or copying it */
typedef struct {
    int32_t lo, hi;
    int32_t n;       /* an upper bound of the set's size */
    uint8_t known;   /* the filter holds every key (else: unknown, as Python's None) */
    uint8_t kofree;
    u64 bloom[BLW];
} Created;

typedef struct {
    u64 key;
    u64 work;
    int32_t minw, maxb;
    int32_t wlo, whi, blo, bhi;
    int32_t wn, bn;
    uint8_t wknown, bknown, used;
} Solved;

/* the filters of a solved entry's two created sets, kept apart from the entries so that a
 * probe of a bucket reads its keys from few cache lines */
typedef struct {
    u64 w[BLW], b[BLW];
} SolvedBlooms;

typedef struct {
    u64 key;
    i64 phi, delta;
    u64 work;
} Work;

#define WAYS 4

/* no arrangement created, known exactly (cr_empty) or not at all (cr_unknown) */
static inline void cr_reset(Created *c, int known) {
    c->lo = NO_RANGE;
    c->hi = -1;
    c->n = 0;
    c->known = (uint8_t)known;
    c->kofree = (uint8_t)known;
}
static inline void cr_empty(Created *c) { cr_reset(c, 1); }
static inline void cr_unknown(Created *c) { cr_reset(c, 0); }

/* Both tables start small and double (rehashing) while they are more than three quarters
 * full, up to max_buckets; then a new entry replaces the one of its bucket with the least
 * work. */
typedef struct {
    Solved *e;
    SolvedBlooms *bl; /* bl[i]: the filters of e[i] */
    size_t nbuckets;  /* power of two; WAYS entries each */
    size_t max_buckets;
    size_t count;
    int refs;         /* the engines that hold it (its own, and one that borrows it) */
} SolvedTable;

typedef struct {
    Work *e;
    size_t nbuckets;
    size_t max_buckets;
    size_t count;
} WorkTable;

static size_t pow2_at_least(size_t n) {
    size_t c = 1;
    while (c < n) c <<= 1;
    return c;
}

static Solved *solved_get(const SolvedTable *t, u64 key) {
    Solved *b = t->e + ((size_t)(key ^ (key >> 31)) & (t->nbuckets - 1)) * WAYS;
    for (int i = 0; i < WAYS; i++)
        if (b[i].used && b[i].key == key) return &b[i];
    return NULL;
}

#define BLBITS (BLW * 64 - 1)
static void bloom_add(u64 *bl, u64 h) {
    unsigned a = (unsigned)(h & BLBITS), c = (unsigned)((h >> 23) & BLBITS);
    bl[a >> 6] |= (u64)1 << (a & 63);
    bl[c >> 6] |= (u64)1 << (c & 63);
}
static int bloom_has(const u64 *bl, u64 h) {
    unsigned a = (unsigned)(h & BLBITS), c = (unsigned)((h >> 23) & BLBITS);
    return ((bl[a >> 6] >> (a & 63)) & 1) && ((bl[c >> 6] >> (c & 63)) & 1);
}

/* Record that the side named wins at the balance (and beyond) by a proof that creates cr. */
static void solved_grow(SolvedTable *t) {
    size_t nb = t->nbuckets * 2;
    Solved *ne = blk_alloc(nb * WAYS * sizeof(Solved), BLK_ZERO);
    SolvedBlooms *nbl = blk_alloc(nb * WAYS * sizeof(SolvedBlooms), BLK_RAW);
    if (!ne || !nbl) {
        blk_free(ne);
        blk_free(nbl);
        t->max_buckets = t->nbuckets;
        return;
    }
    for (size_t i = 0; i < t->nbuckets * WAYS; i++) {
        Solved *o = &t->e[i];
        if (!o->used) continue;
        size_t at = ((size_t)(o->key ^ (o->key >> 31)) & (nb - 1)) * WAYS;
        for (int k = 0; k < WAYS; k++)
            if (!ne[at + k].used) {
                ne[at + k] = *o;
                nbl[at + k] = t->bl[i];
                break;
            }
    }
    blk_free(t->e);
    blk_free(t->bl);
    t->e = ne;
    t->bl = nbl;
    t->nbuckets = nb;
}

static void solved_record(SolvedTable *t, u64 key, int black_wins, int balance, u64 work,
                          const Created *cr) {
    if (t->count * 4 > t->nbuckets * WAYS * 3 && t->nbuckets < t->max_buckets) solved_grow(t);
    Solved *b = t->e + ((size_t)(key ^ (key >> 31)) & (t->nbuckets - 1)) * WAYS;
    Solved *e = NULL;
    for (int i = 0; i < WAYS; i++)
        if (b[i].used && b[i].key == key) { e = &b[i]; break; }
    if (!e) {
        /* a free way, else the one with the least work */
        for (int i = 0; i < WAYS; i++)
            if (!b[i].used) { e = &b[i]; break; }
        if (!e) {
            e = &b[0];
            for (int i = 1; i < WAYS; i++)
                if (b[i].work < e->work) e = &b[i];
        } else {
            t->count++;
        }
        memset(e, 0, sizeof(Solved));
        e->used = 1;
        e->key = key;
        e->minw = NEG;
        e->maxb = POS;
        e->wlo = e->blo = 1;
        e->whi = e->bhi = 0;
        e->wknown = e->bknown = 1;
    }
    int lo = cr->lo, hi = cr->hi;
    if (black_wins) {
        if (balance < e->maxb || (balance == e->maxb && (i64)hi - lo < (i64)e->bhi - e->blo)) {
            e->maxb = balance;
            e->blo = lo;
            e->bhi = hi;
            e->bn = cr->n;
            e->bknown = cr->known;
            if (cr->known && cr->n) memcpy(t->bl[e - t->e].b, cr->bloom, sizeof(cr->bloom));
        }
    } else if (balance > e->minw || (balance == e->minw && (i64)hi - lo < (i64)e->whi - e->wlo)) {
        e->minw = balance;
        e->wlo = lo;
        e->whi = hi;
        e->wn = cr->n;
        e->wknown = cr->known;
        if (cr->known && cr->n) memcpy(t->bl[e - t->e].w, cr->bloom, sizeof(cr->bloom));
    }
    e->work += work;
}

static Work *work_get(const WorkTable *t, u64 key) {
    Work *b = t->e + ((size_t)(key ^ (key >> 31)) & (t->nbuckets - 1)) * WAYS;
    for (int i = 0; i < WAYS; i++)
        if (b[i].key == key && (b[i].phi || b[i].delta)) return &b[i];
    return NULL;
}
static void work_grow(WorkTable *t) {
    size_t nb = t->nbuckets * 2;
    Work *ne = blk_alloc(nb * WAYS * sizeof(Work), BLK_ZERO);
    if (!ne) { t->max_buckets = t->nbuckets; return; }
    for (size_t i = 0; i < t->nbuckets * WAYS; i++) {
        Work *o = &t->e[i];
        if (!o->phi && !o->delta) continue;
        Work *b = ne + ((size_t)(o->key ^ (o->key >> 31)) & (nb - 1)) * WAYS;
        for (int k = 0; k < WAYS; k++)
            if (!b[k].phi && !b[k].delta) { b[k] = *o; break; }
    }
    blk_free(t->e);
    t->e = ne;
    t->nbuckets = nb;
}

static void work_store(WorkTable *t, u64 key, i64 phi, i64 delta, u64 work) {
    if (t->count * 4 > t->nbuckets * WAYS * 3 && t->nbuckets < t->max_buckets) work_grow(t);
    Work *b = t->e + ((size_t)(key ^ (key >> 31)) & (t->nbuckets - 1)) * WAYS;
    Work *e = NULL;
    for (int i = 0; i < WAYS; i++)
        if (b[i].key == key && (b[i].phi || b[i].delta)) { e = &b[i]; break; }
    if (!e) {
        for (int i = 0; i < WAYS; i++)
            if (!b[i].phi && !b[i].delta) { e = &b[i]; break; }
        if (!e) {
            e = &b[0];
            for (int i = 1; i < WAYS; i++)
                if (b[i].work < e->work) e = &b[i];
        } else {
            t->count++;
        }
        e->key = key;
        e->work = 0;
    }
    e->phi = phi;
    e->delta = delta;
    e->work += work;
}
static void work_discard(WorkTable *t, u64 key) {
    Work *e = work_get(t, key);
    if (e) {
        e->phi = e->delta = 0;
        e->key = 0;
        t->count--;
    }
}

/* ---------------------------------------------------------------------------------------- */
/* the path: the history since the last reset, and the pair states                          */
/* ---------------------------------------------------------------------------------------- */

#define HBUCKETS 4096

typedef struct {
    u64 key;
    int32_t idx;    /* the path index */
    int32_t cnt;    /* the stone count */
    int32_t prev;   /* the entry below it with the same bucket, -1 if none */
    int32_t fresh;  /* 1 if its key was not in the segment before it */
} PathEntry;

typedef struct {
    PathEntry *e;
    int top, cap;
    int base;       /* the current segment starts here (history only) */
    int distinct;   /* distinct keys in the segment */
    int heads[HBUCKETS];
} PathSet;

static int ps_init(PathSet *s, int cap) {
    s->e = blk_alloc(sizeof(PathEntry) * (size_t)cap, BLK_RAW);
    s->cap = cap;
    s->top = s->base = s->distinct = 0;
    for (int i = 0; i < HBUCKETS; i++) s->heads[i] = -1;
    return s->e != NULL;
}
static inline int ps_bucket(u64 k) { return (int)((k ^ (k >> 20) ^ (k >> 40)) & (HBUCKETS - 1)); }
/* the index of key in the current segment, -1 if none */
static inline int ps_get(const PathSet *s, u64 key) {
    for (int pos = s->heads[ps_bucket(key)]; pos >= 0; pos = s->e[pos].prev)
        if (s->e[pos].key == key) return pos >= s->base ? s->e[pos].idx : -1;
    return -1;
}
static inline int ps_push(PathSet *s, u64 key, int idx, int cnt) {
    if (s->top >= s->cap) return 0;
    int fresh = ps_get(s, key) < 0;
    int b = ps_bucket(key);
    PathEntry *e = &s->e[s->top];
    e->key = key;
    e->idx = idx;
    e->cnt = cnt;
    e->prev = s->heads[b];
    e->fresh = fresh;
    s->heads[b] = s->top++;
    s->distinct += fresh;
    return 1;
}
static inline void ps_pop(PathSet *s) {
    PathEntry *e = &s->e[--s->top];
    s->heads[ps_bucket(e->key)] = e->prev;
    s->distinct -= e->fresh;
}

/* ---------------------------------------------------------------------------------------- */
/* the engine                                                                                */
/* ---------------------------------------------------------------------------------------- */

typedef struct {
    /* the moves of a node, and what is known of each (see expand) */
    int n;
    int *move;
    u64 *hash;
    int8_t *win;
    i64 *est_phi, *est_delta;
    u64 *forced;
    int32_t *cnt, *forced_cnt;
    int8_t *kill;
    /* the legal children being searched */
    int nsel;
    int *sel, *threat, *ccnt, *dep;
    i64 *phi, *delta;
    Created *aux;
    /* the winning play of the last node proved at this depth (NO_KILLER: none yet) */
    int killer;
} Frame;
#define NO_KILLER (-9)

/* the caches an engine and the other engine of the same problem share, counted */
/* the attacker's wins the eye-space table gives at a child, by (arrangement ^ side key) */
typedef struct {
    u64 key;
    int8_t win;       /* 1: a win, with the arrangements it creates; 0: none */
    Created cr;
} EyeWin;
typedef struct {
    EyeWin *slots;    /* keys salted (BLK_KEYED) */
    size_t mask;
    u64 salt;
} EyeCache;

/* The eye cache's slot for key, and whether it holds key's answer already (*hit). On a miss
 * the slot is taken for key, its answer the caller's to write. Keys are stored salted:
 * another engine's entries, left in a block the pool hands on, are misses */
static inline EyeWin *eye_slot(const EyeCache *c, u64 key, int *hit) {
    EyeWin *slot = &c->slots[(size_t)(key ^ (key >> 29)) & c->mask];
    *hit = slot->key == (key ^ c->salt);
    if (!*hit) slot->key = key ^ c->salt;
    return slot;
}

typedef struct Caches {
    int refs;
    BoolCache benson, lost, alone;
    ChildCache child;
    ExpCache exp;
    EyeCache eye;
} Caches;

static void caches_release(Caches *c) {
    if (!c || --c->refs > 0) return;
    bc_free(&c->benson);
    bc_free(&c->lost);
    bc_free(&c->alone);
    blk_free(c->child.slots);
    blk_free(c->exp.heads);
    blk_free(c->exp.kids);
    blk_free(c->eye.slots);
    free(c);
}

static void table_release(SolvedTable *t) {
    if (!t || --t->refs > 0) return;
    blk_free(t->e);
    blk_free(t->bl);
    free(t);
}

typedef struct Engine Engine;
struct Engine {
    Geo g;
    Board board;
    B region, target, outside;
    int attacker, defender, live;
    /* options */
    double epsilon;
    int knowledge, sum_scale, benson, capture, atari, kofree, tie_phi, check_every;
    int created_max, eyespace, threats, pass_last, ladder;
    /* budget */
    u64 nodes, max_nodes, next_check;
    u64 depth_sum;  /* the depths of the nodes searched, summed (their mean: where the work goes) */
    int depth_max;  /* the deepest node searched */
    double deadline;   /* CLOCK_MONOTONIC seconds, <= 0 for none */
    PyObject *interrupt; /* an object whose is_set() stops the search when true, or NULL */
    int stop;
    /* tables (the solved one may be another engine's: see borrow) */
    SolvedTable *solved;
    WorkTable work;
    SolvedTable *borrowed;
    int borrowed_winner;
    /* caches that depend only on the problem: shared with another engine of it (share) */
    struct Caches *caches;
    BoolCache *bensonc, *lostc, *alonec;
    ChildCache *childc;
    ExpCache *expc;
    EyeCache *eyec;
    /* the path */
    PathSet hist, pairs;
    CM seen, pair_counts;
    u64 pair_key;
    int root_depth, root_move;
    /* shape patterns learned during the search (patterns.py): per pattern, the plays offered
     * in fresh expansions and the nodes they proved; patterns: the scale's bound (0: off) */
    uint32_t *pat_wins, *pat_avail;
    u64 pat_total_wins, pat_total_avail;
    int patterns;
    /* the slots counted, for pattern_clear: PAT_LOG at most, past which it clears them all */
    uint32_t *pat_log;
    int pat_logged;
    /* the killer play: a child whose play won the last node proved at the same depth starts
     * with its initial delta divided by this (bounds.killer_delta; 0 or 1: off) */
    int killer;
    /* per-depth frames, made on first use */
    Frame *frames;
    int nframes;
    int maxchild;
    /* alone search scratch: an open-addressing set of arrangements, its entries valid only
     * with the current stamp (so that a new search clears nothing) */
    u64 *alone_set;
    uint32_t *alone_stamp;
    uint32_t alone_gen;
    size_t alone_mask;
    Board *alone_stack;
    int alone_limit;
    /* expand_fresh's scratch: the stones each play of the node captures (not re-entrant:
     * nothing an expansion calls expands) */
    B caps[MAXP];
};

static u64 SIDE_KEY[3], PASS_KEY, PAIR_KEY, BALANCE_KEY[129];

static void init_keys(void) {
    static int done = 0;
    if (done) return;
    u64 x = 0x6b6f6d706964ULL;
    for (int i = 0; i < 3 + 1 + 1 + 129; i++) {
        u64 z = splitmix(&x);
        if (i < 3) SIDE_KEY[i] = i ? z : 0;
        else if (i == 3) PASS_KEY = z;
        else if (i == 4) PAIR_KEY = z;
        else BALANCE_KEY[i - 5] = z;
    }
    done = 1;
}
static inline u64 balance_key(int balance) { return BALANCE_KEY[(balance < -64 ? -64 : balance > 64 ? 64 : balance) + 64]; }
static inline u64 pair_state(u64 h, int to_move) { return h ^ SIDE_KEY[to_move] ^ PAIR_KEY; }
static inline u64 solved_key(u64 h, int color, int passed) {
    u64 k = h ^ SIDE_KEY[color];
    return passed ? k ^ PASS_KEY : k;
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

__attribute__((noinline, cold)) static void check_budget(Engine *e) {
    e->next_check = e->nodes + (u64)e->check_every;
    if (e->max_nodes) {
        if (e->nodes >= e->max_nodes) { e->stop = STOP_NODES; return; }
        if (e->next_check > e->max_nodes) e->next_check = e->max_nodes;
    }
    /* Let the process's other threads run for a moment: otherwise the search holds the GIL
     * from its first node to its last, and a progress display, or a GTP reader thread that
     * would interrupt the search (by setting the deadline, read just below), waits for the
     * end. Searches stay one at a time in the process, as the GIL made them: a call that
     * would search or touch an engine's tables waits for the search under way (ready). */
    Py_BEGIN_ALLOW_THREADS
    Py_END_ALLOW_THREADS
    if (e->deadline > 0 && now() >= e->deadline) { e->stop = STOP_TIME; return; }
    if (e->interrupt) {
        PyObject *r = PyObject_CallMethod(e->interrupt, "is_set", NULL);
        int set = r ? PyObject_IsTrue(r) : -1;
        Py_XDECREF(r);
        if (set < 0) { e->stop = STOP_INTERRUPT; return; } /* its error propagates */
        if (set) { e->stop = STOP_ASKED; return; }
    }
    if (PyErr_CheckSignals() < 0) e->stop = STOP_INTERRUPT;
}

/* --- counts masks -------------------------------------------------------------------------- */
static inline void cm_set(CM *m, int c) { m->w[c >> 6] |= (u64)1 << (c & 63); }
static inline void cm_or(CM *a, const CM *b) { for (int i = 0; i < CW; i++) a->w[i] |= b->w[i]; }
/* any count lo..hi in m */
static inline int cm_range(const CM *m, int lo, int hi) {
    if (lo > hi) return 0;
    if (lo < 0) lo = 0;
    if (hi >= CW * 64) hi = CW * 64 - 1;
    for (int i = lo >> 6; i <= (hi >> 6); i++) {
        u64 x = m->w[i];
        int a = (i << 6), b = a + 63;
        if (lo > a) x &= ~(u64)0 << (lo - a);
        if (hi < b) x &= ~(u64)0 >> (b - hi);
        if (x) return 1;
    }
    return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* static knowledge                                                                          */
/* ---------------------------------------------------------------------------------------- */

#define BMAX 64  /* regions and blocks Benson's test follows; beyond, it answers "not alive" */

/* Is every target stone in a block that Benson's algorithm proves unconditionally alive? */
static int benson_target(Engine *e) {
    const Geo *g = &e->g;
    int nw = g->nw, color = e->defender;
    const Board *b = &e->board;
    B own = b->st[color], empty, others, tmp, dead_seed, candidates;
    if (bis0(&own, nw)) return 0;
    empty_of(g, b, &empty);
    for (int i = 0; i < nw; i++) others.w[i] = g->valid.w[i] & ~own.w[i];
    for (int i = nw; i < MAXW; i++) others.w[i] = 0;
    dilate(g, &tmp, &own);
    int seeded = 0;
    for (int i = 0; i < nw; i++) {
        dead_seed.w[i] = (empty.w[i] & ~tmp.w[i]) | e->outside.w[i];
        if (dead_seed.w[i]) seeded = 1;
    }
    for (int i = nw; i < MAXW; i++) dead_seed.w[i] = 0;
    if (seeded) {
        flood(g, &tmp, &dead_seed, &others);
        for (int i = 0; i < nw; i++) candidates.w[i] = others.w[i] & ~tmp.w[i];
    } else {
        candidates = others;
    }
    for (int i = nw; i < MAXW; i++) candidates.w[i] = 0;
    if (bis0(&candidates, nw)) return 0;
    B regions[BMAX], near[BMAX], holes[BMAX];
    int nr = 0;
    B rest = candidates;
    while (!bis0(&rest, nw)) {
        if (nr >= BMAX) return 0;
        B one;
        bz(&one);
        bset(&one, blow(&rest, nw));
        flood(g, &regions[nr], &one, &candidates);
        for (int i = 0; i < nw; i++) rest.w[i] &= ~regions[nr].w[i];
        nr++;
    }
    if (nr < 2) return 0;
    for (int j = 0; j < nr; j++) {
        dilate(g, &near[j], &regions[j]);
        for (int i = 0; i < MAXW; i++) holes[j].w[i] = regions[j].w[i] & empty.w[i];
    }
    B blocks[BMAX];
    u64 vital[BMAX], touch[BMAX];
    memset(touch, 0, sizeof(touch));
    int nb = 0;
    B seeds, mine, got;
    dilate(g, &tmp, &candidates);
    for (int i = 0; i < MAXW; i++) seeds.w[i] = own.w[i] & tmp.w[i];
    flood(g, &mine, &e->target, &own);
    bz(&got);
    for (int phase = 0; phase < 2; phase++) {
        if (phase && !beq(&got, &mine, nw)) return 0; /* a target block touches no region */
        for (int i = 0; i < MAXW; i++)
            rest.w[i] = phase ? seeds.w[i] & ~mine.w[i] : seeds.w[i] & mine.w[i];
        while (!bis0(&rest, nw)) {
            if (nb >= BMAX) return 0;
            B one, blk, libs;
            bz(&one);
            bset(&one, blow(&rest, nw));
            flood(g, &blk, &one, &own);
            for (int i = 0; i < MAXW; i++) {
                rest.w[i] &= ~blk.w[i];
                got.w[i] |= blk.w[i];
            }
            dilate(g, &libs, &blk);
            for (int i = 0; i < MAXW; i++) libs.w[i] &= empty.w[i];
            u64 v = 0;
            for (int j = 0; j < nr; j++) {
                if (binter(&near[j], &blk, nw)) {
                    touch[j] |= (u64)1 << nb;
                    int sub = 1;
                    for (int i = 0; i < nw; i++)
                        if (holes[j].w[i] & ~libs.w[i]) { sub = 0; break; }
                    if (sub) v |= (u64)1 << j;
                }
            }
            if (!(v & (v - 1)) && binter(&blk, &e->target, nw)) return 0;
            blocks[nb] = blk;
            vital[nb] = v;
            nb++;
        }
    }
    u64 alive = nb == 64 ? ~(u64)0 : (((u64)1 << nb) - 1);
    u64 live = nr == 64 ? ~(u64)0 : (((u64)1 << nr) - 1);
    for (;;) {
        u64 kept = alive;
        for (int i = 0; i < nb; i++) {
            if ((kept >> i) & 1) {
                u64 v = vital[i] & live;
                if (!(v & (v - 1))) kept &= ~((u64)1 << i);
            }
        }
        if (kept == alive) break;
        alive = kept;
        for (int j = 0; j < nr; j++)
            if (touch[j] & ~alive) live &= ~((u64)1 << j);
    }
    B out;
    bz(&out);
    for (int i = 0; i < nb; i++)
        if ((alive >> i) & 1)
            for (int k = 0; k < MAXW; k++) out.w[k] |= blocks[i].w[k];
    for (int i = 0; i < nw; i++)
        if (e->target.w[i] & ~out.w[i]) return 0;
    return 1;
}

static int benson_alive(Engine *e) {
    if (!e->benson) return 0;
    u64 h = e->board.hash;
    int v = bc_get(e->bensonc, h);
    if (v < 0) {
        v = benson_target(e);
        bc_put(e->bensonc, h, v);
    }
    return v;
}

/* The defender's plays that may save target blocks in atari at lib: the play at lib itself,
 * and the last liberty of each attacker block next to them (its capture). */
static void saving_plays(const Engine *e, const B *blocks, const B *lib, B *saving) {
    const Geo *g = &e->g;
    int nw = g->nw;
    const Board *b = &e->board;
    B att = b->st[e->attacker], empty, adj, tmp;
    *saving = *lib;
    empty_of(g, b, &empty);
    dilate(g, &tmp, blocks);
    for (int i = 0; i < MAXW; i++) adj.w[i] = tmp.w[i] & att.w[i];
    while (!bis0(&adj, nw)) {
        B one, a, libs;
        bz(&one);
        bset(&one, blow(&adj, nw));
        flood(g, &a, &one, &att);
        dilate(g, &libs, &a);
        for (int i = 0; i < MAXW; i++) libs.w[i] &= empty.w[i];
        if (bcount(&libs, nw) <= 1)
            for (int i = 0; i < MAXW; i++) saving->w[i] |= libs.w[i];
        for (int i = 0; i < MAXW; i++) adj.w[i] &= ~a.w[i];
    }
}

/* With the defender to move and the target blocks in atari at the single point lib: is the
 * target lost whatever the defender does? (tsumego.go.life.lost_in_atari) */
static int lost_in_atari_raw(Engine *e, const B *blocks, const B *lib) {
    const Geo *g = &e->g;
    int nw = g->nw;
    if (!binter(lib, &e->region, nw)) return 0;
    Board *b = &e->board;
    B saving;
    saving_plays(e, blocks, lib, &saving);
    Board snap = *b;
    FOR_BITS(p, saving, nw) {
        B cap;
        if (play(g, b, p, e->defender, &cap)) {
            B libs, blk, em;
            flood(g, &blk, blocks, &b->st[e->defender]);
            dilate(g, &libs, &blk);
            empty_of(g, b, &em);
            for (int i = 0; i < MAXW; i++) libs.w[i] &= em.w[i];
            *b = snap;
            if (bcount(&libs, nw) >= 2 || !binter(&libs, &e->region, nw)) return 0;
        }
    }
    return 1;
}
static int lost_in_atari(Engine *e, const B *blocks, const B *lib) {
    u64 h = e->board.hash;
    int v = bc_get(e->lostc, h);
    if (v < 0) {
        v = lost_in_atari_raw(e, blocks, lib);
        bc_put(e->lostc, h, v);
    }
    return v;
}

/* Ladders: the attacker captures by ataris alone. With the target one block, the attacker
 * ataris it (a play at one of its two liberties) and the defender has only the two kinds of
 * saving play of lost_in_atari (its liberty, the capture of an attacker block next to it);
 * every other defender move, a pass or a threat included, leaves it in atari, to be captured.
 * The attacker wins when every saving play leaves the target one liberty in the region (to
 * be captured) or two (to be ataried again, within LADDER_DEPTH ataris). No pair of passes
 * can arise (the attacker never passes) and the attacker uses no threat, so the win holds in
 * both games and at every balance, on any path where the attacker's plays recreate no
 * arrangement: they are the arrangements the read creates, checked against the path like a
 * stored proof's; inside the read, an attacker play that recreates an arrangement of its own
 * line is not tried. A defender's play illegal on the path only narrows its choice. */
#define LADDER_DEPTH 12  /* ataris in one read */
#define LADDER_PLAYS 256 /* plays in one read; beyond it the read claims nothing */

typedef struct {
    int plays, over, nline, nmade;
    u64 line[2 * LADDER_DEPTH + 2];
    u64 made[LADDER_PLAYS];
    int32_t made_cnt[LADDER_PLAYS];
} Ladder;

/* the target's block (one block: the read starts only then, and inside it the defender's
 * plays only join stones to it) and its liberties */
static void target_libs(Engine *e, B *blk, B *libs) {
    const Geo *g = &e->g;
    B em;
    flood(g, blk, &e->target, &e->board.st[e->defender]);
    empty_of(g, &e->board, &em);
    dilate(g, libs, blk);
    for (int i = 0; i < MAXW; i++) libs->w[i] &= em.w[i];
}

/* Does the target's extension at r, after the attacker's atari at q, plainly get three
 * liberties (the target's, and r's empty neighbours, but q and r)? Its block only grows by
 * joins and its liberties by captures, so the atari is then refuted without a play. */
static int extension_escapes(const Engine *e, const B *libs, int q, int r) {
    const Geo *g = &e->g;
    B ext = *libs;
    for (int k = 0; k < g->nn[r]; k++) {
        int t = g->nl[r][k];
        if (!bhas(&e->board.st[1], t) && !bhas(&e->board.st[2], t)) bset(&ext, t);
    }
    bclr(&ext, q);
    bclr(&ext, r);
    return bcount(&ext, g->nw) >= 3;
}

static int ladder_line_has(const Ladder *L, u64 h) {
    for (int i = 0; i < L->nline; i++)
        if (L->line[i] == h) return 1;
    return 0;
}

static int ladder_def(Engine *e, Ladder *L, int depth);

/* the attacker to move: does it capture by ataris within depth of them? */
static int ladder_att(Engine *e, Ladder *L, int depth) {
    const Geo *g = &e->g;
    int nw = g->nw;
    Board *bd = &e->board;
    B blk, libs, tr;
    target_libs(e, &blk, &libs);
    int n = bcount(&libs, nw);
    if (n == 1) return binter(&libs, &e->region, nw);
    if (n != 2 || depth == 0) return 0;
    for (int i = 0; i < MAXW; i++) tr.w[i] = libs.w[i] & e->region.w[i];
    int lo = blow(&libs, nw), hi = bnext(&libs, lo + 1, nw);
    Board snap = *bd;
    FOR_BITS(q, tr, nw) {
        if (extension_escapes(e, &libs, q, q == lo ? hi : lo)) continue;
        if (++L->plays > LADDER_PLAYS) { L->over = 1; return 0; }
        B cap;
        if (!play(g, bd, q, e->attacker, &cap)) continue;
        if (ladder_line_has(L, bd->hash)) { *bd = snap; continue; }
        int mark = L->nmade;
        L->made[L->nmade] = bd->hash;
        L->made_cnt[L->nmade++] = stone_count(g, bd);
        L->line[L->nline++] = bd->hash;
        int r = ladder_def(e, L, depth - 1);
        L->nline--;
        *bd = snap;
        if (r) return 1;
        L->nmade = mark;
        if (L->over) return 0;
    }
    return 0;
}

/* the defender to move with the target in atari: does every saving play lose to a capture
 * or to a ladder within depth more ataris? */
static int ladder_def(Engine *e, Ladder *L, int depth) {
    const Geo *g = &e->g;
    int nw = g->nw;
    Board *bd = &e->board;
    B blk, libs, saving;
    target_libs(e, &blk, &libs);
    if (bcount(&libs, nw) != 1 || !binter(&libs, &e->region, nw)) return 0;
    {
        /* the extension at the liberty with three empty neighbours escapes: no play needed */
        int lib = blow(&libs, nw), free = 0;
        for (int k = 0; k < g->nn[lib]; k++) {
            int t = g->nl[lib][k];
            free += !bhas(&bd->st[1], t) && !bhas(&bd->st[2], t);
        }
        if (free >= 3) return 0;
    }
    saving_plays(e, &blk, &libs, &saving);
    Board snap = *bd;
    FOR_BITS(p, saving, nw) {
        if (++L->plays > LADDER_PLAYS) { L->over = 1; return 0; }
        B cap, b2, l2;
        if (!play(g, bd, p, e->defender, &cap)) continue;
        int ok = 0;
        target_libs(e, &b2, &l2);
        int m = bcount(&l2, nw);
        if (m == 1) {
            ok = binter(&l2, &e->region, nw);
        } else if (m == 2 && depth > 0) {
            L->line[L->nline++] = bd->hash;
            ok = ladder_att(e, L, depth);
            L->nline--;
        }
        *bd = snap;
        if (!ok) return 0;
    }
    return 1;
}

/* Does the attacker, to play, capture the target, one block, by a ladder from the current
 * board? With cr, the arrangements its plays create. The board is left as it was. */
static int ladder_kill(Engine *e, Created *cr) {
    const Geo *g = &e->g;
    B blk, one, part;
    flood(g, &blk, &e->target, &e->board.st[e->defender]);
    bz(&one);
    bset(&one, blow(&blk, g->nw));
    flood(g, &part, &one, &blk);
    if (!beq(&part, &blk, g->nw)) return 0;
    Ladder L;
    L.plays = L.over = L.nmade = 0;
    L.nline = 1;
    L.line[0] = e->board.hash;
    int r = ladder_att(e, &L, LADDER_DEPTH);
    if (r && cr) {
        cr_empty(cr);
        for (int i = 0; i < L.nmade; i++) {
            if (!cr->n) memset(cr->bloom, 0, sizeof(cr->bloom));
            if (L.made_cnt[i] < cr->lo) cr->lo = L.made_cnt[i];
            if (L.made_cnt[i] > cr->hi) cr->hi = L.made_cnt[i];
            cr->n++;
            bloom_add(cr->bloom, L.made[i]);
        }
        if (cr->n > e->created_max) cr->known = 0;
    }
    return r;
}

/* Can the attacker, playing alone on empty region points, capture a target stone? 1 yes, 0
 * no, -1 over the limit of positions (the pass-alive test's own cap). */
static int alone_insert(Engine *e, u64 h, size_t *used) {
    size_t i = (size_t)(h ^ (h >> 29)) & e->alone_mask;
    while (e->alone_stamp[i] == e->alone_gen) {
        if (e->alone_set[i] == h) return 0;
        i = (i + 1) & e->alone_mask;
    }
    e->alone_set[i] = h;
    e->alone_stamp[i] = e->alone_gen;
    (*used)++;
    return 1;
}
static int captures_alone_raw(Engine *e) {
    const Geo *g = &e->g;
    int nw = g->nw;
    for (int i = 0; i < nw; i++)
        if (e->target.w[i] & ~e->board.st[e->defender].w[i]) return 1;
    if (!e->alone_set) {
        e->alone_set = blk_alloc(sizeof(u64) * (e->alone_mask + 1), BLK_RAW);
        e->alone_stamp = blk_alloc(sizeof(uint32_t) * (e->alone_mask + 1), BLK_ZERO);
        if (!e->alone_set || !e->alone_stamp) { e->stop = STOP_MEMORY; return -1; }
    }
    if (++e->alone_gen == 0) { /* the stamps wrapped: clear them */
        memset(e->alone_stamp, 0, sizeof(uint32_t) * (e->alone_mask + 1));
        e->alone_gen = 1;
    }
    size_t used = 0;
    /* depth-first over positions: a stack of boards, each with the next point to try */
    int depth = 0;
    int *next = malloc(sizeof(int) * (size_t)(MAXP + 2));
    if (!next) { e->stop = STOP_MEMORY; return -1; }
    e->alone_stack[0] = e->board;
    next[0] = 0;
    int result = 0;
    while (depth >= 0) {
        Board *cur = &e->alone_stack[depth];
        B moves, em;
        empty_of(g, cur, &em);
        for (int i = 0; i < MAXW; i++) moves.w[i] = em.w[i] & e->region.w[i];
        int p = bnext(&moves, next[depth], nw);
        if (p < 0) { depth--; continue; }
        next[depth] = p + 1;
        Board nb = *cur;
        B cap;
        if (!play(g, &nb, p, e->attacker, &cap)) continue;
        if (binter(&cap, &e->target, nw)) { result = 1; break; }
        if (!alone_insert(e, nb.hash, &used)) continue;
        if (used > (size_t)e->alone_limit) { result = -1; break; }
        if (depth + 1 > MAXP) { result = -1; break; }
        e->alone_stack[++depth] = nb;
        next[depth] = 0;
    }
    free(next);
    return result;
}

/* The winner where a repeated pair of passes ends the game with the target standing: the
 * defender, but in the live game only with a pass-alive target. -1 with e->stop set when the
 * pass-alive test ran over its cap. */
static int end_by_passes(Engine *e) {
    if (!e->live) return e->defender;
    u64 h = e->board.hash;
    int dead = bc_get(e->alonec, h);
    if (dead < 0) {
        dead = 0;
        if (!benson_target(e)) {
            int r = captures_alone_raw(e);
            if (r < 0) {
                if (!e->stop) e->stop = STOP_ALONE;
                return -1;
            }
            dead = r;
        }
        bc_put(e->alonec, h, dead);
    }
    return dead ? e->attacker : e->defender;
}

/* ---------------------------------------------------------------------------------------- */
/* the eye-space database (tsumego/knowledge/eyespace.py), loaded once per process           */
/* ---------------------------------------------------------------------------------------- */

/* Small enclosed eye spaces solved once by retrograde analysis: for every shape (its cells up
 * to symmetry, and which of them touch the target block) and every content, with each side
 * to move, the attacker's distance to a capture of the target (0: none) and whether the
 * target is pass-alive. The rules inside a space, the canonical form of a shape and the
 * attacker's plan are those of eyespace.py, bit for bit: the differential tests compare
 * them. The table and the plans' memo are the process's, shared by every engine: plans are
 * functions of the shape alone, and the core holds the interpreter's lock throughout. */
#define EMAX 7          /* cells of the largest shape */
#define E_ALIVE 0x80
#define E_DIST 0x7F
#define E_CAPTURE (-2)
#define E_ILLEGAL (-1)
#define PLAN_NODES 4000 /* a plan's tree over more positions than this is not used */
#define SETW 35         /* words of a set of contents: 3**7 = 2187 bits */
#define PLAN_SLOTS 32768
#define PLAN_POOL 16384 /* plans kept; the memo is cleared when a plan might not fit */

typedef struct {
    int n, tadj;
    uint8_t nbrs[EMAX];
    size_t offset;       /* of its values in ES.values */
} EShape;

static struct {
    int nshapes;
    EShape *shapes;
    uint8_t *values;
    u64 *keys;           /* canonical key -> shape, open addressing */
    int32_t *index;
    size_t mask;
    uint16_t b3[1 << EMAX];  /* b3[mask] = sum of 3**i over the bits i of mask */
    /* the plans' memo, by (shape, content, side to move): state 1 no plan, 2 a plan (its
     * contents in pool[slot]) */
    u64 *mkeys;
    int32_t *mslot;
    int8_t *mstate;
    u64 (*pool)[SETW];
    int used, count;     /* plans in the pool, memo entries */
} ES;

static void es_memo_clear(void);

static u64 es_key(int n, const int *cells, int tadj) {
    u64 k = (u64)n;
    for (int i = 0; i < n; i++) k |= (u64)cells[i] << (3 + 6 * i);
    return k | (u64)tadj << 45;
}

static inline size_t es_hash(u64 k) { return (size_t)((k * 0x9e3779b97f4a7c15ULL) >> 20); }

static int es_find(u64 key) {
    if (!ES.keys) return -1;
    for (size_t i = es_hash(key) & ES.mask;; i = (i + 1) & ES.mask) {
        if (ES.keys[i] == key) return ES.index[i];
        if (!ES.keys[i]) return -1;
    }
}

/* load_eyespace(cells, sizes, tadj, values): the stored table's arrays (eyespace.npz) */
static PyObject *load_eyespace(PyObject *mod, PyObject *args) {
    (void)mod;
    Py_buffer cells, sizes, tadj, values;
    if (!PyArg_ParseTuple(args, "y*y*y*y*", &cells, &sizes, &tadj, &values)) return NULL;
    PyObject *ret = NULL;
    int n = (int)sizes.len;
    const uint8_t *cl = cells.buf, *sz = sizes.buf, *tj = tadj.buf;
    size_t at = 0, cap = 1;
    if (tadj.len != n || cells.len != (Py_ssize_t)n * EMAX) {
        PyErr_SetString(PyExc_ValueError, "eye-space table: arrays of different lengths");
        goto done;
    }
    for (int i = 0; i < n; i++) {
        if (sz[i] < 1 || sz[i] > EMAX) {
            PyErr_SetString(PyExc_ValueError, "eye-space table: a shape of a bad size");
            goto done;
        }
        size_t m = 1;
        for (int j = 0; j < sz[i]; j++) m *= 3;
        at += 2 * m;
    }
    if (at != (size_t)values.len) {
        PyErr_SetString(PyExc_ValueError, "eye-space table: values do not match the shapes");
        goto done;
    }
    while (cap < 2 * (size_t)n) cap <<= 1;
    EShape *shapes = calloc((size_t)n, sizeof(EShape));
    uint8_t *vals = malloc(at ? at : 1);
    u64 *keys = calloc(cap, sizeof(u64));
    int32_t *index = calloc(cap, sizeof(int32_t));
    if (!shapes || !vals || !keys || !index) {
        free(shapes); free(vals); free(keys); free(index);
        PyErr_NoMemory();
        goto done;
    }
    memcpy(vals, values.buf, at);
    at = 0;
    for (int i = 0; i < n; i++) {
        EShape *s = &shapes[i];
        int c[EMAX] = {0};  /* zeros quiet gcc: every size was checked to be 1..EMAX above */
        s->n = sz[i];
        s->tadj = tj[i];
        s->offset = at;
        size_t m = 1;
        for (int j = 0; j < s->n; j++) { c[j] = cl[i * EMAX + j]; m *= 3; }
        at += 2 * m;
        for (int j = 0; j < s->n; j++) {
            int x = c[j] % 8, y = c[j] / 8, nb = 0;
            for (int q = 0; q < s->n; q++) {
                int qx = c[q] % 8, qy = c[q] / 8;
                if ((qx == x && (qy == y - 1 || qy == y + 1)) || (qy == y && (qx == x - 1 || qx == x + 1)))
                    nb |= 1 << q;
            }
            s->nbrs[j] = (uint8_t)nb;
        }
        u64 key = es_key(s->n, c, s->tadj);
        size_t h = es_hash(key) & (cap - 1);
        while (keys[h]) h = (h + 1) & (cap - 1);
        keys[h] = key;
        index[h] = i;
    }
    free(ES.shapes); free(ES.values); free(ES.keys); free(ES.index);
    ES.shapes = shapes; ES.values = vals; ES.keys = keys; ES.index = index;
    ES.mask = cap - 1;
    ES.nshapes = n;
    for (int m = 0; m < (1 << EMAX); m++) {
        int v = 0, p3 = 1;
        for (int i = 0; i < EMAX; i++, p3 *= 3)
            if (m >> i & 1) v += p3;
        ES.b3[m] = (uint16_t)v;
    }
    if (ES.mstate) es_memo_clear();
    Py_INCREF(Py_None);
    ret = Py_None;
done:
    PyBuffer_Release(&cells); PyBuffer_Release(&sizes); PyBuffer_Release(&tadj);
    PyBuffer_Release(&values);
    return ret;
}

/* The canonical shape of n cells at (xs[i], ys[i]) (touch[i]: next to the target) under the
 * eight symmetries: its index (-1: not in the table) and order[i], the cell of canonical
 * cell i. The least (cells, not-touching flags) in eyespace.canonical's order. */
static int es_locate(int n, const int *xs, const int *ys, const int *touch, int *order) {
    int best[3 * EMAX], bord[EMAX], have = 0;
    for (int t = 0; t < 8; t++) {
        int mx[EMAX], my[EMAX], lx = 1 << 20, ly = 1 << 20, ord[EMAX], seq[3 * EMAX];
        for (int i = 0; i < n; i++) {
            int x = xs[i], y = ys[i];
            if (t & 1) x = -x;
            if (t & 2) y = -y;
            if (t & 4) { int z = x; x = y; y = z; }
            mx[i] = x; my[i] = y;
            if (x < lx) lx = x;
            if (y < ly) ly = y;
        }
        for (int i = 0; i < n; i++) {  /* insertion sort by (row, column) */
            int j = i;
            while (j > 0 && (my[ord[j - 1]] > my[i] || (my[ord[j - 1]] == my[i] && mx[ord[j - 1]] > mx[i]))) {
                ord[j] = ord[j - 1];
                j--;
            }
            ord[j] = i;
        }
        for (int i = 0; i < n; i++) {
            seq[2 * i] = mx[ord[i]] - lx;
            seq[2 * i + 1] = my[ord[i]] - ly;
            seq[2 * n + i] = !touch[ord[i]];
        }
        int less = !have;
        for (int i = 0; have && i < 3 * n; i++)
            if (seq[i] != best[i]) { less = seq[i] < best[i]; break; }
        if (less) {
            memcpy(best, seq, sizeof(int) * 3 * (size_t)n);
            memcpy(bord, ord, sizeof(int) * (size_t)n);
            have = 1;
        }
    }
    int cells[EMAX], tadj = 0;
    for (int i = 0; i < n; i++) {
        if (best[2 * i] > 7 || best[2 * i + 1] > 7) return -1;
        cells[i] = best[2 * i] + 8 * best[2 * i + 1];
        if (!best[2 * n + i]) tadj |= 1 << i;
        order[i] = bord[i];
    }
    return es_find(es_key(n, cells, tadj));
}

/* --- the rules inside a space (cell masks) --- */
static inline int es_around(const EShape *s, int m) {
    int out = 0;
    while (m) {
        int i = __builtin_ctz((unsigned)m);
        out |= s->nbrs[i];
        m &= m - 1;
    }
    return out;
}
static inline int es_flood(const EShape *s, int seed, int within) {
    int m = seed & within;
    for (;;) {
        int n = (m | es_around(s, m)) & within;
        if (n == m) return m;
        m = n;
    }
}
/* the target's liberties: the empty cells next to it, or to defender stones joined to it */
static inline int es_tlibs(const EShape *s, int att, int dfn) {
    int empty = ((1 << s->n) - 1) & ~(att | dfn);
    int joined = es_flood(s, dfn & s->tadj, dfn);
    return empty & (s->tadj | es_around(s, joined));
}
/* a play at empty cell p: 1 and the content in *na, *nd, or E_CAPTURE (the attacker's play
 * captures the target) or E_ILLEGAL (a suicide) */
static int es_play(const EShape *s, int att, int dfn, int p, int attacker, int *na, int *nd) {
    int full = (1 << s->n) - 1, bit = 1 << p, own, opp;
    if (attacker) { own = att | bit; opp = dfn; }
    else { own = dfn | bit; opp = att; }
    if (attacker && !es_tlibs(s, own, opp)) return E_CAPTURE;
    int empty = full & ~(own | opp);
    int tadj = s->tadj;
    int around = s->nbrs[p] & opp;
    while (around) {
        int q = __builtin_ctz((unsigned)around);
        around &= around - 1;
        if (!(opp >> q & 1)) continue;  /* removed with an earlier block */
        int g = es_flood(s, 1 << q, opp);
        if (attacker && (g & tadj)) continue;  /* part of the target, which has a liberty */
        if (!(es_around(s, g) & empty)) { opp &= ~g; empty |= g; }
    }
    int g = es_flood(s, bit, own);
    if (!attacker && (g & tadj)) {
        if (!es_tlibs(s, opp, own)) return E_ILLEGAL;
    } else if (!(es_around(s, g) & empty)) {
        return E_ILLEGAL;
    }
    if (attacker) { *na = own; *nd = opp; }
    else { *na = opp; *nd = own; }
    return 1;
}

static inline int es_index(int att, int dfn) { return ES.b3[att] + 2 * ES.b3[dfn]; }
static inline int es_value(int k, int index, int atm) {
    return ES.values[ES.shapes[k].offset + 2 * (size_t)index + (atm ? 0 : 1)];
}

/* --- the attacker's plan: the contents its plays create on the way to a capture --- */
static int es_memo_alloc(void) {
    if (ES.mstate) return 1;
    ES.mkeys = malloc(PLAN_SLOTS * sizeof(u64));
    ES.mslot = malloc(PLAN_SLOTS * sizeof(int32_t));
    ES.mstate = calloc(PLAN_SLOTS, 1);
    ES.pool = malloc(PLAN_POOL * sizeof(*ES.pool));
    if (!ES.mkeys || !ES.mslot || !ES.mstate || !ES.pool) {
        free(ES.mkeys); free(ES.mslot); free(ES.mstate); free(ES.pool);
        ES.mkeys = NULL; ES.mslot = NULL; ES.mstate = NULL; ES.pool = NULL;
        return 0;
    }
    ES.used = ES.count = 0;
    return 1;
}
/* the memo's key of (shape, content index, side to move); never 0 */
static inline u64 es_memo_key(int k, int index, int atm) {
    return (((u64)k << 13 | (u64)index) << 1 | (u64)atm) + 1;
}
static void es_memo_clear(void) {
    memset(ES.mstate, 0, PLAN_SLOTS);
    ES.used = ES.count = 0;
}
static inline size_t es_memo_at(u64 key) {
    size_t i = es_hash(key) & (PLAN_SLOTS - 1);
    while (ES.mstate[i] && ES.mkeys[i] != key) i = (i + 1) & (PLAN_SLOTS - 1);
    return i;
}
static void es_memo_put(u64 key, int found, const u64 *set) {
    size_t i = es_memo_at(key);
    ES.mkeys[i] = key;
    if (!ES.mstate[i]) ES.count++;
    ES.mstate[i] = (int8_t)(found ? 2 : 1);
    if (found) {
        ES.mslot[i] = ES.used;
        memcpy(ES.pool[ES.used++], set, sizeof(u64) * SETW);
    }
}

typedef struct { int v, a, d; } EOption;

/* The plan from content (a, d) of shape k, as if a line began there: 1 (its contents in out),
 * 0 none, -1 the budget ran out (nothing of the unfinished positions is kept). */
static int es_plan_solve(int k, int a, int d, int atm, int *budget, u64 *out) {
    const EShape *s = &ES.shapes[k];
    int here = es_index(a, d);
    u64 key = es_memo_key(k, here, atm);
    size_t at = es_memo_at(key);
    if (ES.mstate[at]) {
        if (ES.mstate[at] == 1) return 0;
        memcpy(out, ES.pool[ES.mslot[at]], sizeof(u64) * SETW);
        return 1;
    }
    if (--*budget < 0) return -1;
    int full = (1 << s->n) - 1, empty = full & ~(a | d), found = 0;
    u64 sub[SETW];
    if (atm) {
        int far = es_value(k, here, 1) & E_DIST;
        if (far) {
            EOption opt[EMAX];
            int no = 0, captured = 0;
            for (int m = empty; m; m &= m - 1) {
                int p = __builtin_ctz((unsigned)m), na, nd;
                int r = es_play(s, a, d, p, 1, &na, &nd);
                if (r == E_CAPTURE) { captured = 1; break; }
                if (r == 1) {
                    int v = es_value(k, es_index(na, nd), 0) & E_DIST;
                    if (v && v < far) {
                        /* sorted by (distance, attacker mask, defender mask) */
                        int j = no++;
                        while (j > 0 && (opt[j - 1].v > v || (opt[j - 1].v == v
                               && (opt[j - 1].a > na || (opt[j - 1].a == na && opt[j - 1].d > nd))))) {
                            opt[j] = opt[j - 1];
                            j--;
                        }
                        opt[j] = (EOption){v, na, nd};
                    }
                }
            }
            if (captured) {
                memset(out, 0, sizeof(u64) * SETW);
                found = 1;
            } else {
                for (int i = 0; i < no && !found; i++) {
                    int c = es_index(opt[i].a, opt[i].d);
                    if (c == here) continue;
                    int r = es_plan_solve(k, opt[i].a, opt[i].d, 0, budget, sub);
                    if (r < 0) return -1;
                    if (r && !(sub[here >> 6] >> (here & 63) & 1)) {
                        memcpy(out, sub, sizeof(u64) * SETW);
                        out[c >> 6] |= (u64)1 << (c & 63);
                        found = 1;
                    }
                }
            }
        }
    } else {
        int r = es_plan_solve(k, a, d, 1, budget, out);  /* the pass */
        if (r < 0) return -1;
        found = r;
        for (int m = empty; found && m; m &= m - 1) {
            int p = __builtin_ctz((unsigned)m), na, nd;
            if (es_play(s, a, d, p, 0, &na, &nd) != 1) continue;
            r = es_plan_solve(k, na, nd, 1, budget, sub);
            if (r < 0) return -1;
            if (!r || (sub[here >> 6] >> (here & 63) & 1)) { found = 0; break; }
            for (int i = 0; i < SETW; i++) out[i] |= sub[i];
        }
    }
    es_memo_put(key, found, out);
    return found;
}

/* The attacker's plan from content (a, d) of shape k: 1 with its contents in out, else 0
 * (none, or more than PLAN_NODES positions to work it out: then kept as none). */
static int es_plan(int k, int a, int d, int atm, u64 *out) {
    if (!es_memo_alloc()) return 0;
    if (ES.used > PLAN_POOL - PLAN_NODES - 2 || ES.count > PLAN_SLOTS / 2 - PLAN_NODES - 2)
        es_memo_clear();
    int budget = PLAN_NODES;
    int r = es_plan_solve(k, a, d, atm, &budget, out);
    if (r < 0) {
        es_memo_put(es_memo_key(k, es_index(a, d), atm), 0, NULL);
        return 0;
    }
    return r;
}

/* The eye-space table on the current board, to_move to move, the target being the one block
 * `blocks` with the liberties `libs`: 1 when the target is pass-alive (the defender wins on
 * any path); 2 when the attacker wins, with (when cr is given) the arrangements its plays
 * create, as a proof's created set (it holds on a path that holds none of them); 0: not an
 * enclosed space of the table, or neither answer, or (with cr) no plan. */
static int eye_space(Engine *e, const B *blocks, const B *libs, const B *empty, int to_move,
                     Created *cr) {
    const Geo *g = &e->g;
    int nw = g->nw;
    B within, space, sp, touching;
    if (!ES.shapes) return 0;
    for (int i = 0; i < MAXW; i++) within.w[i] = e->region.w[i] & ~blocks->w[i];
    flood(g, &space, libs, &within);
    int n = bcount(&space, nw);
    if (!n || n > EMAX) return 0;
    spread(g, &sp, &space);
    for (int i = 0; i < nw; i++) {
        /* holding every liberty, enclosed by the target alone, and holding every empty
         * point of the region */
        if ((libs->w[i] & ~space.w[i]) || (sp.w[i] & ~space.w[i] & ~blocks->w[i])
            || ((space.w[i] & empty->w[i]) != (empty->w[i] & e->region.w[i])))
            return 0;
    }
    spread(g, &sp, blocks);
    for (int i = 0; i < MAXW; i++) touching.w[i] = space.w[i] & sp.w[i];
    int pts[EMAX], xs[EMAX], ys[EMAX], touch[EMAX], order[EMAX], m = 0;
    FOR_BITS(p, space, nw) {
        pts[m] = p;
        xs[m] = p % g->s;
        ys[m] = p / g->s;
        touch[m] = bhas(&touching, p);
        m++;
    }
    int k = es_locate(n, xs, ys, touch, order);
    if (k < 0) return 0;
    const B *att = &e->board.st[e->attacker], *dfn = &e->board.st[e->defender];
    int a = 0, d = 0;
    for (int i = 0; i < n; i++) {
        int p = pts[order[i]];
        if (bhas(att, p)) a |= 1 << i;
        else if (bhas(dfn, p)) d |= 1 << i;
    }
    int atm = to_move == e->attacker;
    int v = es_value(k, es_index(a, d), atm);
    if (v & E_ALIVE) return 1;
    if (!(v & E_DIST)) return 0;
    if (!cr) return 2;
    u64 set[SETW];
    if (!es_plan(k, a, d, atm, set)) return 0;
    /* the arrangements the plan creates: the board outside the space with each content */
    u64 h_out = e->board.hash;
    for (int i = 0; i < n; i++) {
        int p = pts[order[i]];
        if (a >> i & 1) h_out ^= g->zob[p][e->attacker];
        else if (d >> i & 1) h_out ^= g->zob[p][e->defender];
    }
    int outside = stone_count(g, &e->board) - __builtin_popcount((unsigned)(a | d));
    cr_empty(cr);
    int size = 1;
    for (int i = 0; i < n; i++) size *= 3;
    for (int w = 0; w < (size + 63) / 64; w++) {
        for (u64 x = set[w]; x; x &= x - 1) {
            int c = w * 64 + __builtin_ctzll(x), ca = 0, cd = 0;
            u64 h = h_out;
            for (int i = 0, r = c; i < n; i++, r /= 3) {
                int p = pts[order[i]];
                if (r % 3 == 1) { ca |= 1 << i; h ^= g->zob[p][e->attacker]; }
                else if (r % 3 == 2) { cd |= 1 << i; h ^= g->zob[p][e->defender]; }
            }
            int count = outside + __builtin_popcount((unsigned)(ca | cd));
            if (count < cr->lo) cr->lo = count;
            if (count > cr->hi) cr->hi = count;
            if (!cr->n) memset(cr->bloom, 0, sizeof(cr->bloom));
            cr->n++;
            bloom_add(cr->bloom, h);
        }
    }
    if (cr->n > e->created_max) cr->known = 0;
    return 2;
}

/* ---------------------------------------------------------------------------------------- */
/* expansion                                                                                 */
/* ---------------------------------------------------------------------------------------- */

static int frame_alloc(Frame *f, int n) {
    memset(f, 0, sizeof(Frame));
    f->move = malloc(sizeof(int) * (size_t)n);
    f->hash = malloc(sizeof(u64) * (size_t)n);
    f->win = malloc((size_t)n);
    f->est_phi = malloc(sizeof(i64) * (size_t)n);
    f->est_delta = malloc(sizeof(i64) * (size_t)n);
    f->forced = malloc(sizeof(u64) * (size_t)n);
    f->cnt = malloc(sizeof(int32_t) * (size_t)n);
    f->forced_cnt = malloc(sizeof(int32_t) * (size_t)n);
    f->kill = malloc((size_t)n);
    f->sel = malloc(sizeof(int) * (size_t)n);
    f->threat = malloc(sizeof(int) * (size_t)n);
    f->ccnt = malloc(sizeof(int) * (size_t)n);
    f->dep = malloc(sizeof(int) * (size_t)n);
    f->phi = malloc(sizeof(i64) * (size_t)n);
    f->delta = malloc(sizeof(i64) * (size_t)n);
    f->aux = malloc(sizeof(Created) * (size_t)n);
    return f->move && f->hash && f->win && f->est_phi && f->est_delta && f->forced && f->cnt
        && f->forced_cnt && f->kill && f->sel && f->threat && f->ccnt && f->dep && f->phi && f->delta
        && f->aux;
}
static void frame_free(Frame *f) {
    free(f->move); free(f->hash); free(f->win); free(f->est_phi); free(f->est_delta);
    free(f->forced); free(f->cnt); free(f->forced_cnt); free(f->sel); free(f->threat);
    free(f->ccnt); free(f->dep); free(f->phi); free(f->delta); free(f->aux); free(f->kill);
}
static Frame *frame_at(Engine *e, int depth) {
    if (depth >= MAXDEPTH) return NULL;
    if (depth >= e->nframes) {
        int n = e->nframes ? e->nframes : 64;
        while (n <= depth) n *= 2;
        if (n > MAXDEPTH) n = MAXDEPTH;
        Frame *fr = realloc(e->frames, sizeof(Frame) * (size_t)n);
        if (!fr) return NULL;
        e->frames = fr;
        for (int i = e->nframes; i < n; i++) {
            if (!frame_alloc(&fr[i], e->maxchild)) {
                e->nframes = i;
                return NULL;
            }
            fr[i].killer = NO_KILLER;
        }
        e->nframes = n;
    }
    return &e->frames[depth];
}

/* The liberties of the target's blocks on the board, at most 3 (0: the target is captured;
 * patterns.target_liberties) */
static int target_libs_3(Engine *e) {
    B blocks, libs;
    target_libs(e, &blocks, &libs);
    int n = bcount(&libs, e->g.nw);
    return n < 3 ? n : 3;
}

/* What a play (or the pass) leads to, with the board on the child (a play) or on the node
 * (the pass): the static winner, the initial numbers, the attacker's forced win next, the
 * target's liberties. */
static void child_info(Engine *e, int color, int p, const B *cap, int s0, const B *blocks,
                       const B *near, int one_block, ChildInfo *out) {
    const Geo *g = &e->g;
    int nw = g->nw;
    Board *bd = &e->board;
    int attacker = e->attacker, defender = e->defender, opp = 3 - color;
    int defending = color == defender;
    int w = 0, c;
    B b = *blocks;
    int single = one_block;
    if (p == PASS) {
        c = s0;
    } else {
        if (color == attacker) {
            if (binter(cap, &e->target, nw)) w = attacker;
        } else if (benson_alive(e)) {
            w = defender;
        }
        c = (w && !defending) ? NO_RANGE : (s0 + 1 - bcount(cap, nw));
        if (!w && defending && bhas(near, p)) {
            B seed = *blocks;
            bset(&seed, p);
            flood(g, &b, &seed, &bd->st[defender]);
            if (!single) {
                B one, part;
                bz(&one);
                bset(&one, blow(&b, nw));
                flood(g, &part, &one, &b);
                single = beq(&part, &b, nw);
            }
        }
    }
    out->win = (int8_t)w;
    out->count = c;
    out->forced = 0;
    out->forced_count = NO_RANGE;
    out->kill = 0;
    if (w) {
        out->est_phi = out->est_delta = 1;
        out->libs = (int8_t)(w == attacker ? 0 : target_libs_3(e));
        return;
    }
    B empty, libs;
    empty_of(g, bd, &empty);
    dilate(g, &libs, &b);
    for (int i = 0; i < MAXW; i++) libs.w[i] &= empty.w[i];
    int n = bcount(&libs, nw);
    out->libs = (int8_t)(n < 3 ? n : 3);  /* b: the target's blocks in the child */
    if (n == 1 && e->atari && !defending && lost_in_atari(e, &b, &libs)) {
        out->win = (int8_t)attacker;
        out->est_phi = out->est_delta = 1;
        return;
    }
    if (e->eyespace && single && p != PASS && binter_count_le(&empty, &e->region, nw, EMAX)) {
        int r = eye_space(e, &b, &libs, &empty, opp, NULL);
        if (r == 1) {
            out->win = (int8_t)defender;
            out->est_phi = out->est_delta = 1;
            return;
        }
        out->kill = r == 2 ? KILL_EYE : 0;
    }
    int try_capture = e->capture && n <= 4 && !(n > 1 && single);
    int try_atari = e->atari && n == 2 && single;
    if (defending && (try_capture || try_atari)) {
        Board snap = *bd;
        B tr;
        for (int i = 0; i < MAXW; i++) tr.w[i] = libs.w[i] & e->region.w[i];
        FOR_BITS(q, tr, nw) {
            B c2;
            int ok = play(g, bd, q, attacker, &c2);
            if (try_capture) {
                if (ok && binter(&c2, &e->target, nw)) out->forced = bd->hash;
            } else if (ok) {
                B lib, em;
                dilate(g, &lib, &b);
                empty_of(g, bd, &em);
                for (int i = 0; i < MAXW; i++) lib.w[i] &= em.w[i];
                if (bcount(&lib, nw) <= 1 && lost_in_atari(e, &b, &lib)) {
                    out->forced = bd->hash;
                    out->forced_count = stone_count(g, &snap) + 1 - bcount(&c2, nw);
                }
            }
            *bd = snap;
            if (out->forced) break;
        }
    }
    /* a ladder may kill: read only when the search selects the child (ladder_selected) */
    if (defending && e->ladder && !out->forced && !out->kill && n == 2 && single)
        out->kill = KILL_LADDER;
    if (e->knowledge) {
        B notown, sp, eyes;
        const B *own = &bd->st[defender];
        for (int i = 0; i < nw; i++) notown.w[i] = g->valid.w[i] & ~own->w[i];
        for (int i = nw; i < MAXW; i++) notown.w[i] = 0;
        spread(g, &sp, &notown);
        for (int i = 0; i < MAXW; i++) eyes.w[i] = empty.w[i] & e->region.w[i] & ~sp.w[i];
        int ne = bcount(&eyes, nw);
        i64 k = ne < 2 ? 3 - ne : 1;
        if (opp == attacker) {
            out->est_phi = n;
            out->est_delta = k * e->sum_scale;
        } else {
            out->est_phi = k;
            out->est_delta = (i64)n * e->sum_scale;
        }
    } else {
        out->est_phi = out->est_delta = 1;
    }
}

/* The children of the current board with color to move: every play of the region (not a
 * suicide), then the pass. */
static void expand_fresh(Engine *e, int color, Frame *f);

static void expand(Engine *e, int color, Frame *f) {
    ExpCache *x = e->expc;
    u64 key = e->board.hash ^ SIDE_KEY[color] ^ 0x5bd1e995ULL;
    size_t slot = (size_t)(key ^ (key >> 31)) & x->mask;
    ExpHead *hd = &x->heads[slot];
    ExpChild *kids = &x->kids[slot * (size_t)x->width];
    if (exp_holds(x, hd, key)) {
        int n = hd->n;
        for (int i = 0; i < n; i++) {
            const ExpChild *c = &kids[i];
            f->move[i] = c->move;
            f->hash[i] = c->hash;
            f->win[i] = c->win;
            f->est_phi[i] = c->est_phi;
            f->est_delta[i] = c->est_delta;
            f->forced[i] = c->forced;
            f->kill[i] = c->kill;
            f->cnt[i] = c->cnt == INT16_MAX ? NO_RANGE : c->cnt;
            f->forced_cnt[i] = c->forced_cnt == INT16_MAX ? NO_RANGE : c->forced_cnt;
        }
        f->n = n;
        return;
    }
    expand_fresh(e, color, f);
    if (f->n > x->width) return;
    for (int i = 0; i < f->n; i++) {
        ExpChild *c = &kids[i];
        c->move = (int16_t)f->move[i];
        c->hash = f->hash[i];
        c->win = f->win[i];
        c->est_phi = (int32_t)f->est_phi[i];
        c->est_delta = (int32_t)f->est_delta[i];
        c->forced = f->forced[i];
        c->kill = f->kill[i];
        c->cnt = f->cnt[i] == NO_RANGE ? INT16_MAX : (int16_t)f->cnt[i];
        c->forced_cnt = f->forced_cnt[i] == NO_RANGE ? INT16_MAX : (int16_t)f->forced_cnt[i];
    }
    exp_store(x, hd, key, f->n);
}

/* The attacker's null move (threat order 1 of lambda search): were the attacker to pass,
 * which defender plays among `scan` would leave the target pass-alive at once (Benson)? The
 * first THREAT_TRIES of them, in point order, are tried after each of the attacker's children
 * (its plays and its pass): a child after which one of them is legal and still leaves the target
 * pass-alive is lost for the attacker, the way the defender's child after which the attacker
 * captures at once is lost for the defender (its `forced`: the arrangement the play creates,
 * which `mid` checks against the path). Exact: the winner is the one Benson's test gives on
 * the board after both plays; the candidates only choose which plays to test. A function of
 * the node's arrangement alone, so it is kept with the expansion. */
#define THREAT_TRIES 2
static void defender_threats(Engine *e, Frame *f, const B *scan) {
    const Geo *g = &e->g;
    int nw = g->nw, defender = e->defender;
    Board *bd = &e->board;
    Board snap = *bd;
    int cand[THREAT_TRIES], nc = 0;
    FOR_BITS(d, *scan, nw) {
        B cap;
        if (!play(g, bd, d, defender, &cap)) continue;
        int alive = benson_alive(e);
        *bd = snap;
        if (alive) {
            cand[nc++] = d;
            if (nc == THREAT_TRIES) break;
        }
    }
    if (!nc) return;
    for (int i = 0; i < f->n; i++) {
        if (f->win[i] || f->forced[i]) continue;
        int p = f->move[i];
        B cap;
        if (p != PASS) play(g, bd, p, e->attacker, &cap);
        Board child = *bd;
        for (int j = 0; j < nc && !f->forced[i]; j++) {
            if (cand[j] == p) continue;
            if (play(g, bd, cand[j], defender, &cap) && benson_alive(e)) {
                f->forced[i] = bd->hash;
                f->forced_cnt[i] = stone_count(g, bd);
            }
            *bd = child;
        }
        *bd = snap;
    }
}

/* Shape patterns (patterns.py, which has the why): the pattern of color's play at p, its 8
 * neighbours (0 empty, 1 color's, 2 the other's, 3 off the board; the row above, the two
 * beside, the row below), whether p is in near, whether it is in far, the target's
 * liberties after the play (libs), whether it captures, whether color is the attacker. The
 * crop holds every neighbour of a region point that is on the board. */
#define PAT_SLOT_BITS 19
#define PAT_SLOTS (1 << PAT_SLOT_BITS)
#define PAT_PRIOR 5
#define PAT_MIN_WINS 50
#define PAT_ONE 64
static int pattern_key(const Engine *e, int p, int color, const B *near, const B *far,
                       int libs, int captures) {
    const Geo *g = &e->g;
    const Board *b = &e->board;
    static const int dy[8] = {-1, -1, -1, 0, 0, 1, 1, 1}, dx[8] = {-1, 0, 1, -1, 1, -1, 0, 1};
    int y = p / g->s, x = p % g->s, key = 0;
    for (int k = 0; k < 8; k++) {
        int yy = y + dy[k], xx = x + dx[k], v = 3;
        if (yy >= 0 && yy < g->h && xx >= 0 && xx < g->w) {
            int q = yy * g->s + xx;
            v = bhas(&b->st[color], q) ? 1 : bhas(&b->st[3 - color], q) ? 2 : 0;
        }
        key = key * 4 + v;
    }
    key = (key * 2 + bhas(near, p)) * 2 + bhas(far, p);
    return ((key * 4 + libs) * 2 + captures) * 2 + (color == e->attacker);
}

/* The pattern of color's winning play at p from the current board (the proved node's;
 * hash: the child's arrangement), the same as expand_fresh gave the play. The target's
 * liberties after it come from the child cache (the child's stone count tells a capture),
 * or from playing it when the cache no longer holds the child */
static int pattern_of_play(Engine *e, int p, int color, u64 hash) {
    const Geo *g = &e->g;
    Board *bd = &e->board;
    B blocks, near, far;
    flood(g, &blocks, &e->target, &bd->st[e->defender]);
    dilate(g, &near, &blocks);
    dilate(g, &far, &near);
    u64 key = hash ^ SIDE_KEY[color];
    const ChildInfo *slot = child_slot(e->childc, key);
    int libs, captures;
    if (child_holds(e->childc, slot, key)) {
        libs = slot->libs;
        captures = slot->count == NO_RANGE || slot->count < stone_count(g, bd) + 1;
    } else {
        Board snap = *bd;
        B cap;
        play(g, bd, p, color, &cap);
        libs = target_libs_3(e);
        captures = !bis0(&cap, g->nw);
        *bd = snap;
    }
    return pattern_key(e, p, color, &near, &far, libs, captures);
}

/* The counters' slot of a pattern: a multiplicative hash of its key into 2^19 slots (a
 * search meets a few tens of thousands of the 2^22 patterns; patterns.pattern_slot) */
static inline int pattern_slot(int key) {
    return (int)(((uint32_t)key * 0x9E3779B1u) >> (32 - PAT_SLOT_BITS));
}

/* a slot's first count, noted for pattern_clear */
#define PAT_LOG 32768
static inline void pattern_counted(Engine *e, int slot) {
    if (e->pat_logged < PAT_LOG) e->pat_log[e->pat_logged] = (uint32_t)slot;
    e->pat_logged++;
}

/* Zero the counters before they go back to the pool (BLK_PATTERN): the slots noted, or all
 * of them when more were counted than the log holds */
static void pattern_clear(Engine *e) {
    if (!e->pat_wins || !e->pat_avail || !e->pat_log) return;
    if (e->pat_logged > PAT_LOG) {
        memset(e->pat_wins, 0, PAT_SLOTS * sizeof(uint32_t));
        memset(e->pat_avail, 0, PAT_SLOTS * sizeof(uint32_t));
    } else {
        for (int i = 0; i < e->pat_logged; i++) {
            e->pat_wins[e->pat_log[i]] = 0;
            e->pat_avail[e->pat_log[i]] = 0;
        }
    }
    e->pat_logged = 0;
}

/* Count a play of pattern key in a fresh expansion and return its initial delta scaled by
 * the pattern's record: times W (a + P) / (A w + P W) in fixed point, clamped to
 * [1/patterns, patterns], at least 1 (patterns.scaled_delta) */
static i64 pattern_offer(Engine *e, int key, i64 delta) {
    key = pattern_slot(key);
    u64 a = ++e->pat_avail[key];
    if (a == 1) pattern_counted(e, key);
    e->pat_total_avail++;
    if (e->pat_total_wins < PAT_MIN_WINS) return delta;
    u64 W = e->pat_total_wins, A = e->pat_total_avail, w = e->pat_wins[key];
    u64 num = W * (a + PAT_PRIOR) * PAT_ONE, den = A * w + PAT_PRIOR * W;
    i64 r = den ? (i64)(num / den) : (i64)PAT_ONE * e->patterns;
    if (r < PAT_ONE / e->patterns) r = PAT_ONE / e->patterns;
    if (r > (i64)PAT_ONE * e->patterns) r = (i64)PAT_ONE * e->patterns;
    i64 d = delta * r / PAT_ONE;
    return d < 1 ? 1 : d;
}

static void expand_fresh(Engine *e, int color, Frame *f) {
    const Geo *g = &e->g;
    int nw = g->nw;
    Board *bd = &e->board;
    Board snap = *bd;
    int s0 = stone_count(g, bd);
    B blocks, near, empty, moves;
    flood(g, &blocks, &e->target, &bd->st[e->defender]);
    dilate(g, &near, &blocks);
    int one_block;
    {
        B one, part;
        bz(&one);
        bset(&one, blow(&blocks, nw));
        flood(g, &part, &one, &blocks);
        one_block = beq(&part, &blocks, nw);
    }
    empty_of(g, bd, &empty);
    for (int i = 0; i < MAXW; i++) moves.w[i] = empty.w[i] & e->region.w[i];
    u64 side = SIDE_KEY[color];
    ChildCache *cc = e->childc;
    int n = 0;
    /* first every legal play's arrangement and captures, its cache slot asked for before it
     * is read (the reads then wait for memory together), then each child's information: from
     * the cache, or worked out on the board after the play, rebuilt from its captures */
    B far;
    if (e->patterns) dilate(g, &far, &near); else bz(&far);
    FOR_BITS(p, moves, nw) {
        if (!play(g, bd, p, color, &e->caps[n])) continue;
        u64 key = bd->hash ^ side;
        __builtin_prefetch(child_slot(cc, key));
        f->move[n] = p;
        f->hash[n] = bd->hash;
        *bd = snap;
        n++;
    }
    for (int i = 0; i < n; i++) {
        int p = f->move[i];
        u64 key = f->hash[i] ^ side;
        ChildInfo *slot = child_slot(cc, key);
        ChildInfo info;
        if (child_holds(cc, slot, key)) {
            info = *slot;
        } else {
            /* the board after the play, from the stones it captured (no second play) */
            const B *cap = &e->caps[i];
            bset(&bd->st[color], p);
            for (int w = 0; w < nw; w++) bd->st[3 - color].w[w] &= ~cap->w[w];
            bd->hash = f->hash[i];
            child_info(e, color, p, cap, s0, &blocks, &near, one_block, &info);
            child_store(cc, slot, key, &info);
            *bd = snap;
        }
        f->win[i] = info.win;
        f->est_phi[i] = info.est_phi;
        f->est_delta[i] = info.est_delta;
        f->forced[i] = info.forced;
        f->kill[i] = info.kill;
        f->cnt[i] = info.count;
        f->forced_cnt[i] = info.forced_count;
        if (e->patterns)
            f->est_delta[i] = pattern_offer(
                e, pattern_key(e, p, color, &near, &far, info.libs, !bis0(&e->caps[i], nw)),
                info.est_delta);
    }
    {
        ChildInfo info;
        B none;
        bz(&none);
        child_info(e, color, PASS, &none, s0, &blocks, &near, one_block, &info);
        f->move[n] = PASS;
        f->hash[n] = bd->hash;
        f->win[n] = info.win;
        f->est_phi[n] = info.est_phi;
        f->est_delta[n] = info.est_delta;
        f->forced[n] = info.forced;
        f->kill[n] = info.kill;
        f->cnt[n] = info.count;
        f->forced_cnt[n] = info.forced_count;
        n++;
    }
    f->n = n;
    /* (the null move asks Benson's test: with the test off it would scan for nothing) */
    if (e->threats && e->benson && color == e->attacker) {
        /* the defender's plays that might leave the target pass-alive at once: those within
         * two points of its blocks (a narrower scan; which plays are tried changes no result) */
        B cand;
        dilate(g, &cand, &near);
        for (int i = 0; i < MAXW; i++) cand.w[i] &= moves.w[i];
        defender_threats(e, f, &cand);
    }
}

/* ---------------------------------------------------------------------------------------- */
/* created sets and the path                                                                 */
/* ---------------------------------------------------------------------------------------- */

/* Add to a proof's created arrangements one child's: the arrangement h its move creates (with
 * stone count `count`; NO_RANGE for none) and its own proof's. */
static void cr_merge(Created *acc, int count, u64 h, const Created *child, int cap) {
    if (count != NO_RANGE) {
        if (count < acc->lo) acc->lo = count;
        if (count > acc->hi) acc->hi = count;
    }
    if (child->lo < acc->lo) acc->lo = child->lo;
    if (child->hi > acc->hi) acc->hi = child->hi;
    if (acc->known) {
        if (!child->known) {
            acc->known = 0;
            return;
        }
        if (child->n) {
            if (acc->n) {
                for (int i = 0; i < BLW; i++) acc->bloom[i] |= child->bloom[i];
            } else {
                memcpy(acc->bloom, child->bloom, sizeof(acc->bloom));
            }
            acc->n += child->n;
        }
        if (count != NO_RANGE) {
            if (!acc->n) memset(acc->bloom, 0, sizeof(acc->bloom));
            bloom_add(acc->bloom, h);
            acc->n++;
        }
        if (acc->n > cap) acc->known = 0;
    }
}

/* The path a stored proof is checked against: the history from `hist_from` on (or the single
 * arrangement `one` when one_cnt >= 0), and every pair state (plus `extra` when extra_cnt >=
 * 0). */
typedef struct {
    int hist_from;
    u64 one;
    int one_cnt;
    u64 extra;
    int extra_cnt;
} PathView;

/* Can a stored proof (count range lo..hi, Bloom filter bl, known) be used on this path? */
static int fits(const Engine *e, int lo, int hi, int known, const u64 *bl, const CM *seen,
                const PathView *pv) {
    if (lo > hi || !cm_range(seen, lo, hi)) return 1;
    if (!known) return 0;
    if (pv->one_cnt >= 0) {
        if (pv->one_cnt >= lo && pv->one_cnt <= hi && bloom_has(bl, pv->one)) return 0;
    } else {
        for (int i = pv->hist_from; i < e->hist.top; i++) {
            const PathEntry *x = &e->hist.e[i];
            if (x->cnt >= lo && x->cnt <= hi && bloom_has(bl, x->key)) return 0;
        }
    }
    for (int i = 0; i < e->pairs.top; i++) {
        const PathEntry *x = &e->pairs.e[i];
        if (x->cnt >= lo && x->cnt <= hi && bloom_has(bl, x->key)) return 0;
    }
    if (pv->extra_cnt >= 0 && pv->extra_cnt >= lo && pv->extra_cnt <= hi
        && bloom_has(bl, pv->extra))
        return 0;
    return 1;
}

/* A solved record's created set (its filter copied only where it is read). */
static inline void cr_from(Created *cr, int lo, int hi, int n, int known, const u64 *bloom,
                           int kofree) {
    cr->lo = lo;
    cr->hi = hi;
    cr->n = n;
    cr->known = (uint8_t)known;
    cr->kofree = (uint8_t)kofree;
    if (known && n) memcpy(cr->bloom, bloom, sizeof(cr->bloom));
}

/* dst = src, the filter copied only where it is read */
static inline void cr_copy(Created *dst, const Created *src) {
    cr_from(dst, src->lo, src->hi, src->n, src->known, src->bloom, src->kofree);
}

/* (phi, delta) of a child position: a solved result whose proof may be used here, else the
 * work numbers or the initial estimate; and the created set of a solved one. */
static void lookup(Engine *e, int color, int balance, int passed, u64 h, i64 est_phi,
                   i64 est_delta, const CM *seen, const PathView *pv, u64 pair_key,
                   i64 *phi, i64 *delta, Created *cr) {
    u64 sk = solved_key(h, color, passed);
    const Solved *s = solved_get(e->solved, sk);
    if (s) {
        const SolvedBlooms *bl = &e->solved->bl[s - e->solved->e];
        if (balance >= s->maxb && fits(e, s->blo, s->bhi, s->bknown, bl->b, seen, pv)) {
            *phi = color == BLACK ? 0 : INF;
            *delta = color == BLACK ? INF : 0;
            cr_from(cr, s->blo, s->bhi, s->bn, s->bknown, bl->b, s->maxb == NEG);
            return;
        }
        if (balance <= s->minw && fits(e, s->wlo, s->whi, s->wknown, bl->w, seen, pv)) {
            *phi = color == BLACK ? INF : 0;
            *delta = color == BLACK ? 0 : INF;
            cr_from(cr, s->wlo, s->whi, s->wn, s->wknown, bl->w, s->minw == POS);
            return;
        }
    }
    if (e->borrowed) {
        s = solved_get(e->borrowed, sk);
        if (s) {
            int bw = e->borrowed_winner, ok;
            const Solved *x = s;
            const SolvedBlooms *bl = &e->borrowed->bl[x - e->borrowed->e];
            if (bw == BLACK) ok = balance >= x->maxb && fits(e, x->blo, x->bhi, x->bknown, bl->b, seen, pv);
            else ok = balance <= x->minw && fits(e, x->wlo, x->whi, x->wknown, bl->w, seen, pv);
            if (ok) {
                *phi = color == bw ? 0 : INF;
                *delta = color == bw ? INF : 0;
                if (bw == BLACK)
                    cr_from(cr, x->blo, x->bhi, x->bn, x->bknown, bl->b, x->maxb == NEG);
                else
                    cr_from(cr, x->wlo, x->whi, x->wn, x->wknown, bl->w, x->minw == POS);
                return;
            }
        }
    }
    cr_unknown(cr);
    const Work *w = work_get(&e->work, sk ^ balance_key(balance) ^ pair_key);
    if (w) {
        *phi = w->phi;
        *delta = w->delta;
        return;
    }
    *phi = est_phi;
    *delta = est_delta;
}

/* The killer play's initial delta (bounds.killer_delta): divided by `divisor` (0 or 1:
 * unchanged), at least 1.
 * The play that won the last node proved at the same depth often wins its siblings too (the
 * attacker's vital point after each of the defender's tries); only the order changes. */
static inline i64 killer_delta(i64 delta, int divisor) {
    if (divisor <= 1) return delta;
    delta /= divisor;
    return delta < 1 ? 1 : delta;
}

/* df-pn's thresholds for the selected child (1+epsilon) */
static void child_thresholds(i64 th_phi, i64 th_delta, i64 node_delta, i64 child_phi,
                             i64 second_delta, double eps, i64 *c_phi, i64 *c_delta) {
    /* an unbounded delta threshold leaves the child's phi unbounded: the node's delta, a
     * sum capped at BIG, only reaches it when a child's phi is INF */
    i64 p = th_delta >= INF ? INF : th_delta - node_delta + child_phi;
    if (second_delta >= INF) {
        *c_delta = th_phi;
    } else {
        i64 grown = (i64)((double)second_delta * (1.0 + eps)) + 1;
        *c_delta = th_phi < grown ? th_phi : grown;
    }
    *c_phi = p < INF ? p : INF;
}

/* ---------------------------------------------------------------------------------------- */
/* df-pn                                                                                     */
/* ---------------------------------------------------------------------------------------- */

/* The eye-space table's win for the attacker after color's play p (arrangement h) from the
 * current board, with the arrangements it creates; NULL if none. Cached by arrangement. */
static const Created *eye_win(Engine *e, int color, int p, u64 h) {
    EyeCache *c = e->eyec;
    u64 key = h ^ SIDE_KEY[3 - color] ^ 0x2545f4914f6cdd1dULL;
    int hit;
    EyeWin *slot = eye_slot(c, key, &hit);
    if (!hit) {
        const Geo *g = &e->g;
        Board *bd = &e->board;
        Board snap = *bd;
        B cap, blocks, libs, empty;
        slot->win = 0;
        if (play(g, bd, p, color, &cap)) {
            flood(g, &blocks, &e->target, &bd->st[e->defender]);
            empty_of(g, bd, &empty);
            dilate(g, &libs, &blocks);
            for (int i = 0; i < MAXW; i++) libs.w[i] &= empty.w[i];
            slot->win = eye_space(e, &blocks, &libs, &empty, 3 - color, &slot->cr) == 2;
        }
        *bd = snap;
    }
    return slot->win ? &slot->cr : NULL;
}

/* The attacker's ladder after the defender's move p (arrangement h; PASS: the current
 * board), with the arrangements it creates; NULL if none. Cached by arrangement, beside
 * eye_win's. */
static const Created *ladder_win(Engine *e, int color, int p, u64 h) {
    EyeCache *c = e->eyec;
    u64 key = h ^ SIDE_KEY[3 - color] ^ 0x9e3779b97f4a7c15ULL;
    int hit;
    EyeWin *slot = eye_slot(c, key, &hit);
    if (!hit) {
        Board *bd = &e->board;
        Board snap = *bd;
        B cap;
        slot->win = 0;
        if (p == PASS || play(&e->g, bd, p, color, &cap))
            slot->win = (int8_t)ladder_kill(e, &slot->cr);
        *bd = snap;
    }
    return slot->win ? &slot->cr : NULL;
}

/* The child sel[best] of the frame, a defender's move that may meet a ladder, is selected for
 * search: read the ladder, and where it kills with plays legal on this path, prove the child
 * for the attacker without a node. Reading only the children the search selects spares the
 * reads of the many children it never enters; the result is the same in both engines,
 * whatever they cache, since a read depends on the arrangement alone. */
static int ladder_selected(Engine *e, int color, Frame *f, int best, const CM *seen) {
    int i = f->sel[best];
    const Created *lw = ladder_win(e, color, f->move[i], f->hash[i]);
    PathView pv = {e->hist.base, 0, -1, 0, -1};
    if (!lw || !fits(e, lw->lo, lw->hi, lw->known, lw->bloom, seen, &pv)) return 0;
    f->phi[best] = 0;
    f->delta[best] = INF;
    f->dep[best] = NO_DEP;
    cr_copy(&f->aux[best], lw);
    return 1;
}

typedef struct {
    i64 phi, delta;
    int dep;
    Created cr;
} MidResult;

static void mid(Engine *e, int color, int balance, int passed, int depth, i64 th_phi,
                i64 th_delta, MidResult *res) {
    e->nodes++;
    e->depth_sum += (u64)depth;
    if (depth > e->depth_max) e->depth_max = depth;
    if (e->nodes >= e->next_check) check_budget(e);
    if (e->stop) { res->phi = res->delta = 1; return; }
    Frame *f = frame_at(e, depth);
    if (!f) {
        e->stop = STOP_DEPTH;
        res->phi = res->delta = 1;
        return;
    }
    const Geo *g = &e->g;
    Board *bd = &e->board;
    int opp = 3 - color;
    u64 h0 = bd->hash;
    int attacker = e->attacker, live = e->live;
    CM seen = e->seen;
    int s0 = stone_count(g, bd);
    expand(e, color, f);
    if (e->stop) { res->phi = res->delta = 1; return; }
    int rep_dep = NO_DEP;
    int has_threat = color == BLACK ? balance > 0 : balance < 0;
    int step = color == BLACK ? -1 : 1;
    u64 pair_key = e->pair_key;
    {
        /* the tables' buckets of the children, asked for before they are read: the reads
         * below then wait for memory together rather than one after another */
        u64 nk = balance_key(balance);
        for (int i = 0; i < f->n; i++) {
            u64 sk = solved_key(f->hash[i], opp, f->move[i] == PASS);
            __builtin_prefetch(e->solved->e
                               + ((size_t)(sk ^ (sk >> 31)) & (e->solved->nbuckets - 1)) * WAYS);
            u64 wk = sk ^ nk ^ pair_key;
            __builtin_prefetch(e->work.e
                               + ((size_t)(wk ^ (wk >> 31)) & (e->work.nbuckets - 1)) * WAYS);
        }
    }
    int ns = 0;
    for (int i = 0; i < f->n; i++) {
        int p = f->move[i];
        u64 h = f->hash[i];
        int w = f->win[i];
        int idx, dep0 = NO_DEP;
        if (p == PASS) {
            idx = -1;
            if (passed) {
                int at = e->pairs.top ? ps_get(&e->pairs, pair_state(h0, opp)) : -1;
                if (at >= 0) {
                    w = end_by_passes(e);
                    if (w < 0) { res->phi = res->delta = 1; return; }
                    dep0 = at;
                } else {
                    idx = PAIR;
                }
            } else if (color == attacker && !live && e->hist.distinct == 1
                       && (attacker == BLACK ? balance >= 0 : balance <= 0)) {
                continue; /* the attacker's pass, never the only win here */
            }
        } else {
            idx = ps_get(&e->hist, h);
            if (idx >= 0 && !has_threat) {
                if (idx < rep_dep) rep_dep = idx;
                continue;
            }
            dep0 = idx < 0 ? NO_DEP : idx;
        }
        Created *aux = &f->aux[ns];
        cr_empty(aux);
        if (idx != PAIR && !w && f->forced[i] && ps_get(&e->hist, f->forced[i]) < 0
            && f->forced[i] != h) {
            /* the attacker captures at once, or ataris with no escape; or, after the
             * attacker's move, the defender makes the target pass-alive at once */
            w = opp;
            if (f->forced_cnt[i] != NO_RANGE) {
                aux->lo = aux->hi = f->forced_cnt[i];
                aux->n = 1;
                memset(aux->bloom, 0, sizeof(aux->bloom));
                bloom_add(aux->bloom, f->forced[i]);
            }
        } else if (!w && idx == -1 && f->kill[i] == KILL_EYE) {
            const Created *ew = eye_win(e, color, p, h);
            PathView pv = {e->hist.base, 0, -1, 0, -1};
            if (ew && fits(e, ew->lo, ew->hi, ew->known, ew->bloom, &seen, &pv)) {
                w = attacker; /* the eye-space table's kill, legal on this path */
                cr_copy(aux, ew);
            }
        }
        f->sel[ns] = i;
        f->threat[ns] = idx;
        f->ccnt[ns] = idx == PAIR ? s0 : p == PASS ? NO_RANGE : f->cnt[i];
        if (w) {
            if (w == color) { f->phi[ns] = INF; f->delta[ns] = 0; }
            else { f->phi[ns] = 0; f->delta[ns] = INF; }
            f->dep[ns] = dep0;
        } else {
            i64 pc, dc;
            PathView pv;
            i64 est_delta = f->est_delta[i];
            if (p == f->killer) est_delta = killer_delta(est_delta, e->killer);
            if (idx == -1) {
                pv = (PathView){e->hist.base, 0, -1, 0, -1};
                lookup(e, opp, balance, p == PASS, h, f->est_phi[i], est_delta, &seen, &pv,
                       pair_key, &pc, &dc, aux);
            } else if (idx == PAIR) {
                u64 ps = pair_state(h0, opp);
                CM sn = e->pair_counts;
                cm_set(&sn, s0);
                pv = (PathView){0, h0, s0, ps, s0};
                lookup(e, opp, 0, 0, h, f->est_phi[i], est_delta, &sn, &pv,
                       pair_key ^ ps, &pc, &dc, aux);
                aux->kofree = 1;
            } else {
                CM sn = e->pair_counts;
                cm_set(&sn, s0);
                pv = (PathView){0, h0, s0, 0, -1};
                lookup(e, opp, balance + step, 0, h, f->est_phi[i], est_delta, &sn, &pv,
                       pair_key, &pc, &dc, aux);
            }
            f->phi[ns] = pc;
            f->delta[ns] = dc;
            f->dep[ns] = ((pc && dc) || idx < 0) ? NO_DEP : idx;
        }
        ns++;
    }
    f->nsel = ns;
    /* the pass is searched last: while a play is still open (delta below INF) its delta is
     * left out of the node's phi and of the selection, not of the node's delta (the sum), so
     * the node is disproved only once the pass is too (bounds.deferred_deltas) */
    int wait = e->pass_last && ns > 1 && f->move[f->sel[ns - 1]] == PASS ? ns - 1 : -1;
    /* (the expansion lists the pass after every play) */
    u64 start_nodes = e->nodes;
    i64 phi, delta;
    for (;;) {
        if (ns == 0) { phi = INF; delta = 0; break; }
        phi = INF;
        int best = -1;
        i64 d2 = INF, total = 0;
        int inf_phi = 0;
        for (int i = 0; i < ns; i++) {
            i64 d = f->delta[i];
            if (i == wait && d > 0) {
                total += f->phi[i];
                if (f->phi[i] >= INF) inf_phi = 1;
                continue;
            }
            if (d < phi) { d2 = phi; phi = d; best = i; }
            else if (d == phi) {
                d2 = d;
                if (best < 0) best = i;
                else if (e->tie_phi && f->phi[i] > f->phi[best]) best = i;
            } else if (d < d2) d2 = d;
            total += f->phi[i];
            if (f->phi[i] >= INF) inf_phi = 1;
        }
        if (wait >= 0 && phi >= INF && f->delta[wait] > 0) {
            phi = f->delta[wait]; /* every play refuted: the pass is the one left to search */
            best = wait;
            d2 = INF;
        }
        delta = total < INF ? total : inf_phi ? INF : BIG;
        if (phi == 0 || delta == 0 || phi >= th_phi || delta >= th_delta) break;
        if (f->kill[f->sel[best]] == KILL_LADDER && f->threat[best] == -1
            && ladder_selected(e, color, f, best, &seen))
            continue;
        i64 cth_phi, cth_delta;
        child_thresholds(th_phi, th_delta, delta, f->phi[best], d2, e->epsilon, &cth_phi,
                         &cth_delta);
        int i = f->sel[best];
        int p = f->move[i];
        int idx = f->threat[best];
        int child_balance = idx == -1 ? balance : idx == PAIR ? 0 : balance + step;
        int child_passed = p == PASS && idx != PAIR;
        /* enter */
        Board snap = *bd;
        CM seen_before = e->seen, pc_before = e->pair_counts;
        int base_before = e->hist.base, dist_before = e->hist.distinct;
        int hist_top = e->hist.top;
        u64 pk_before = e->pair_key;
        int ok = 1;
        if (p == PASS) {
            if (idx == PAIR) {
                u64 key = pair_state(h0, opp);
                ok = ps_push(&e->pairs, key, depth + 1, s0);
                e->pair_key ^= key;
                cm_set(&e->pair_counts, s0);
                e->hist.base = e->hist.top;
                e->hist.distinct = 0;
                ok = ok && ps_push(&e->hist, h0, depth + 1, s0);
                e->seen = e->pair_counts;
            } else {
                ok = ps_push(&e->hist, h0, depth + 1, s0);
            }
        } else {
            B cap;
            play(g, bd, p, color, &cap);
            int cnt = f->cnt[i];
            if (idx >= 0) {
                e->hist.base = e->hist.top;
                e->hist.distinct = 0;
                ok = ps_push(&e->hist, h0, depth, s0) && ps_push(&e->hist, bd->hash, depth + 1, cnt);
                CM sn = e->pair_counts;
                cm_set(&sn, s0);
                if (cnt != NO_RANGE) cm_set(&sn, cnt);
                e->seen = sn;
            } else {
                ok = ps_push(&e->hist, bd->hash, depth + 1, cnt);
                if (cnt != NO_RANGE) cm_set(&e->seen, cnt);
            }
        }
        MidResult r;
        if (!ok) {
            e->stop = STOP_DEPTH;
            r.phi = r.delta = 1;
        } else {
            mid(e, opp, child_balance, child_passed, depth + 1, cth_phi, cth_delta, &r);
        }
        /* leave */
        while (e->hist.top > hist_top) ps_pop(&e->hist);
        e->hist.base = base_before;
        e->hist.distinct = dist_before;
        if (p == PASS && idx == PAIR && e->pairs.top && ok) ps_pop(&e->pairs);
        e->pair_key = pk_before;
        e->pair_counts = pc_before;
        e->seen = seen_before;
        *bd = snap;
        if (e->stop) { res->phi = res->delta = 1; return; }
        f = &e->frames[depth]; /* (frames may have moved) */
        f->phi[best] = r.phi;
        f->delta[best] = r.delta;
        cr_copy(&f->aux[best], &r.cr);
        if (idx == PAIR) f->aux[best].kofree = 1;
        if (idx >= 0 && (r.phi == 0 || r.delta == 0) && idx < r.dep) r.dep = idx;
        f->dep[best] = r.dep;
    }
    /* store */
    u64 sk = solved_key(h0, color, passed);
    if (phi == 0 || delta == 0) {
        int proved = phi == 0;
        int dep;
        if (proved) {
            dep = -1;
            for (int i = 0; i < ns; i++)
                if (f->delta[i] == 0 && f->dep[i] > dep) dep = f->dep[i];
        } else {
            dep = rep_dep;
            for (int i = 0; i < ns; i++)
                if (f->dep[i] < dep) dep = f->dep[i];
        }
        if (dep >= depth) dep = NO_DEP;
        Created acc;
        cr_empty(&acc);
        int kofree;
        if (proved) {
            int j = -1;
            for (int i = 0; i < ns; i++) {
                if (f->delta[i] == 0 && (j < 0 || f->dep[i] > f->dep[j]
                        || (f->dep[i] == f->dep[j] && f->aux[i].kofree && !f->aux[j].kofree)))
                    j = i;
            }
            kofree = f->aux[j].kofree && f->threat[j] < 0;
            int won = f->move[f->sel[j]]; /* the winning play */
            if (depth == e->root_depth) e->root_move = won;
            if (won != PASS) {
                f->killer = won;
                if (e->patterns) {
                    int slot = pattern_slot(pattern_of_play(e, won, color, f->hash[f->sel[j]]));
                    if (e->pat_wins[slot]++ == 0) pattern_counted(e, slot);
                    e->pat_total_wins++;
                }
            }
            u64 made = f->threat[j] != PAIR ? f->hash[f->sel[j]] : pair_state(h0, opp);
            cr_merge(&acc, f->ccnt[j], made, &f->aux[j], e->created_max);
        } else {
            kofree = rep_dep == NO_DEP;
            for (int i = 0; i < ns; i++) {
                if (!f->aux[i].kofree) kofree = 0;
                u64 made = f->threat[i] != PAIR ? f->hash[f->sel[i]] : pair_state(h0, opp);
                cr_merge(&acc, f->ccnt[i], made, &f->aux[i], e->created_max);
            }
        }
        acc.kofree = (uint8_t)kofree;
        if (dep == NO_DEP) {
            int black_wins = (proved ? color : opp) == BLACK;
            int rec = !(kofree && e->kofree) ? balance : black_wins ? NEG : POS;
            solved_record(e->solved, sk, black_wins, rec, e->nodes - start_nodes, &acc);
            work_discard(&e->work, sk ^ balance_key(balance) ^ e->pair_key);
        }
        res->phi = phi;
        res->delta = delta;
        res->dep = dep;
        cr_copy(&res->cr, &acc);
        return;
    }
    work_store(&e->work, sk ^ balance_key(balance) ^ e->pair_key, phi, delta, e->nodes - start_nodes);
    res->phi = phi;
    res->delta = delta;
    res->dep = NO_DEP;
    cr_unknown(&res->cr);
}

/* Search the current position to a proof or a disproof (or a stop). */
static int root_search(Engine *e, int color, int balance, int passed, int depth, i64 *phi,
                       i64 *delta);

/* the search under way in the process, if any, and its thread (see check_budget) */
static int searching;
static unsigned long searching_thread;

/* a search from the current board (root_search), noted as the one under way */
static int root(Engine *e, int color, int balance, int passed, int depth, i64 *phi, i64 *delta) {
    searching = 1;
    searching_thread = PyThread_get_thread_ident();
    int ok = root_search(e, color, balance, passed, depth, phi, delta);
    searching = 0;
    return ok;
}

/* Wait (without the GIL) until no other thread's search is under way; 0 with an error set
 * when the search under way is this thread's (a call from a signal handler within it). */
static int await_search(void) {
    while (searching) {
        if (searching_thread == PyThread_get_thread_ident()) {
            PyErr_SetString(PyExc_RuntimeError, "a search is under way in this thread");
            return 0;
        }
        Py_BEGIN_ALLOW_THREADS
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
        Py_END_ALLOW_THREADS
    }
    return 1;
}

static int root_search(Engine *e, int color, int balance, int passed, int depth, i64 *phi,
                       i64 *delta) {
    e->root_depth = depth;
    e->root_move = -3;
    for (;;) {
        MidResult r;
        mid(e, color, balance, passed, depth, INF, INF, &r);
        if (e->stop) return 0;
        if (r.phi == 0 || r.delta == 0) {
            *phi = r.phi;
            *delta = r.delta;
            return 1;
        }
    }
}

/* ---------------------------------------------------------------------------------------- */
/* setting up, the entry points                                                             */
/* ---------------------------------------------------------------------------------------- */

static void engine_free(Engine *e) {
    if (!e) return;
    Py_XDECREF(e->interrupt);
    table_release(e->solved);
    table_release(e->borrowed);
    blk_free(e->work.e);
    caches_release(e->caches);
    blk_free(e->hist.e);
    blk_free(e->pairs.e);
    for (int i = 0; i < e->nframes; i++) frame_free(&e->frames[i]);
    free(e->frames);
    blk_free(e->alone_set);
    blk_free(e->alone_stamp);
    blk_free(e->alone_stack);
    pattern_clear(e);
    blk_free(e->pat_wins);
    blk_free(e->pat_avail);
    blk_free(e->pat_log);
    free(e);
}

static const char *stop_kind(int stop) {
    switch (stop) {
    case STOP_NODES: return "nodes";
    case STOP_TIME: return "time";
    case STOP_INTERRUPT: return "interrupt";
    case STOP_ASKED: return "interrupt";
    case STOP_DEPTH: return "depth";
    case STOP_ALONE: return "pass-alive";
    case STOP_MEMORY: return "memory";
    default: return "none";
    }
}

/* Start the path at the current board: its history holds only this arrangement. */
static void start_path(Engine *e) {
    while (e->hist.top) ps_pop(&e->hist);
    while (e->pairs.top) ps_pop(&e->pairs);
    e->hist.base = 0;
    e->hist.distinct = 0;
    int s0 = stone_count(&e->g, &e->board);
    ps_push(&e->hist, e->board.hash, 0, s0);
    memset(&e->seen, 0, sizeof(CM));
    memset(&e->pair_counts, 0, sizeof(CM));
    cm_set(&e->seen, s0);
    e->pair_key = 0;
    e->stop = 0;
}

/* The winner the play just made fixes statically (0 if none). */
static int static_after(Engine *e, int mover, const B *cap) {
    if (mover == e->attacker) {
        if (binter(cap, &e->target, e->g.nw)) return e->attacker;
    } else if (benson_alive(e)) {
        return e->defender;
    }
    return 0;
}

typedef struct {
    PyObject_HEAD
    Engine *e;
    Board root;        /* the problem's position */
} CoreObject;

static PyObject *Stopped;

static int raise_stop(Engine *e) {
    if (e->stop == STOP_INTERRUPT) return -1; /* KeyboardInterrupt is set */
    PyErr_SetString(Stopped, stop_kind(e->stop));
    return -1;
}

static int crop_point(const Engine *e, long p) {
    if (p < 0 || p >= (long)e->g.size * e->g.size) return -2;
    return e->g.crop_of[p];
}

static int list_points(PyObject *seq, const Engine *e, B *out) {
    bz(out);
    PyObject *fast = PySequence_Fast(seq, "a sequence of points");
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    for (Py_ssize_t i = 0; i < n; i++) {
        long p = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (p == -1 && PyErr_Occurred()) { Py_DECREF(fast); return -1; }
        int c = crop_point(e, p);
        if (c < 0) {
            Py_DECREF(fast);
            PyErr_Format(PyExc_ValueError, "point %ld is outside the crop", p);
            return -1;
        }
        bset(out, c);
    }
    Py_DECREF(fast);
    return 0;
}

/* Core(size, crop, black, white, target, region, outside, live, tt_size, options) */
static int Core_init(CoreObject *self, PyObject *args, PyObject *kw) {
    int size, live;
    long long tt_size;
    int x0, y0, w, h;
    PyObject *black, *white, *target, *region, *outside;
    double epsilon;
    int knowledge, sum_scale, benson, capture, atari, kofree, tie_phi, check_every,
        created_max, eyespace = 1, threats = 1, pass_last = 1, ladder = 1, patterns = 0,
        killer = 0;
    static char *names[] = {"size", "crop", "black", "white", "target", "region", "outside",
                            "live", "tt_size", "epsilon", "knowledge", "sum_scale", "benson",
                            "capture", "atari", "kofree", "tie_phi", "check_every",
                            "created_max", "eyespace", "threats", "pass_last", "ladder", "patterns",
                            "killer", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kw, "i(iiii)OOOOOpLdpippppppi|ppppii", names, &size,
                                     &x0, &y0, &w, &h, &black, &white, &target, &region, &outside,
                                     &live, &tt_size, &epsilon, &knowledge, &sum_scale, &benson,
                                     &capture, &atari, &kofree, &tie_phi, &check_every,
                                     &created_max, &eyespace, &threats, &pass_last, &ladder,
                                     &patterns, &killer))
        return -1;
    if (size < 2 || size > 19 || w < 1 || h < 1 || x0 < 0 || y0 < 0 || x0 + w > size
        || y0 + h > size || h * (w + 1) > MAXP) {
        PyErr_SetString(PyExc_ValueError, "bad board size or crop");
        return -1;
    }
    if (!await_search()) return -1;
    init_keys();
    engine_free(self->e);
    Engine *e = calloc(1, sizeof(Engine));
    if (!e) { PyErr_NoMemory(); return -1; }
    self->e = e;
    Geo *g = &e->g;
    g->size = size;
    g->x0 = x0; g->y0 = y0; g->w = w; g->h = h; g->s = w + 1;
    g->npts = h * g->s;
    g->nw = (g->npts + 63) / 64;
    for (int i = 0; i < MAXP; i++) g->board_of[i] = -1;
    for (int i = 0; i < 19 * 19; i++) g->crop_of[i] = -1;
    u64 seed = 0x7573656d65676fULL;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int c = y * g->s + x;
            bset(&g->valid, c);
            g->board_of[c] = (y0 + y) * size + (x0 + x);
            g->crop_of[(y0 + y) * size + (x0 + x)] = c;
        }
    for (int c = 0; c < MAXP; c++) {
        g->zob[c][0] = 0;
        g->zob[c][1] = splitmix(&seed);
        g->zob[c][2] = splitmix(&seed);
        g->nn[c] = 0;
        if (g->board_of[c] < 0) continue;
        int x = c % g->s, y = c / g->s;
        if (x > 0) g->nl[c][g->nn[c]++] = (int16_t)(c - 1);
        if (x < w - 1) g->nl[c][g->nn[c]++] = (int16_t)(c + 1);
        if (y > 0) g->nl[c][g->nn[c]++] = (int16_t)(c - g->s);
        if (y < h - 1) g->nl[c][g->nn[c]++] = (int16_t)(c + g->s);
    }
    if (list_points(black, e, &e->board.st[BLACK]) < 0 || list_points(white, e, &e->board.st[WHITE]) < 0
        || list_points(target, e, &e->target) < 0 || list_points(region, e, &e->region) < 0
        || list_points(outside, e, &e->outside) < 0)
        return -1;
    e->board.hash = 0;
    for (int col = 1; col <= 2; col++) FOR_BITS(c, e->board.st[col], g->nw) e->board.hash ^= g->zob[c][col];
    if (bis0(&e->target, g->nw)) { PyErr_SetString(PyExc_ValueError, "no target"); return -1; }
    e->defender = binter(&e->target, &e->board.st[BLACK], g->nw) ? BLACK : WHITE;
    e->attacker = 3 - e->defender;
    e->live = live;
    e->epsilon = epsilon;
    e->knowledge = knowledge;
    e->sum_scale = sum_scale;
    e->benson = benson;
    e->capture = capture;
    e->atari = atari;
    e->kofree = kofree;
    e->tie_phi = tie_phi;
    e->check_every = check_every > 0 ? check_every : 1024;
    e->created_max = created_max;
    e->eyespace = eyespace;
    e->threats = threats;
    e->pass_last = pass_last;
    e->ladder = ladder;
    e->next_check = 1;
    e->maxchild = bcount(&e->region, g->nw) + 2;
    if (tt_size < 2048) tt_size = 2048;
    /* a solved entry is about five times a work entry: the table's bytes split evenly */
    size_t half = (size_t)(tt_size / 2);
    e->solved = calloc(1, sizeof(SolvedTable));
    e->caches = calloc(1, sizeof(Caches));
    if (!e->solved || !e->caches) { PyErr_NoMemory(); return -1; }
    e->solved->refs = 1;
    e->caches->refs = 1;
    e->bensonc = &e->caches->benson;
    e->lostc = &e->caches->lost;
    e->alonec = &e->caches->alone;
    e->childc = &e->caches->child;
    e->expc = &e->caches->exp;
    e->eyec = &e->caches->eye;
    e->solved->max_buckets = pow2_at_least(half / WAYS);
    e->work.max_buckets = pow2_at_least(half / WAYS);
    e->solved->nbuckets = e->solved->max_buckets < 1024 ? e->solved->max_buckets : 1024;
    e->work.nbuckets = e->work.max_buckets < 1024 ? e->work.max_buckets : 1024;
    e->solved->e = blk_alloc(e->solved->nbuckets * WAYS * sizeof(Solved), BLK_ZERO);
    e->solved->bl = blk_alloc(e->solved->nbuckets * WAYS * sizeof(SolvedBlooms), BLK_RAW);
    e->work.e = blk_alloc(e->work.nbuckets * WAYS * sizeof(Work), BLK_ZERO);
    size_t cache = (size_t)tt_size / 16;
    if (!e->solved->e || !e->solved->bl || !e->work.e || !bc_init(e->bensonc, cache)
        || !bc_init(e->lostc, cache / 4) || !bc_init(e->alonec, cache / 16)) {
        PyErr_NoMemory();
        return -1;
    }
    e->childc->mask = pow2_at_least(cache) - 1;
    e->childc->slots = blk_alloc((e->childc->mask + 1) * sizeof(ChildInfo), BLK_KEYED_CHILD);
    e->childc->salt = new_salt();
    e->eyec->mask = pow2_at_least(cache / 16 > 1024 ? cache / 16 : 1024) - 1;
    e->eyec->slots = blk_alloc((e->eyec->mask + 1) * sizeof(EyeWin), BLK_KEYED_EYE);
    e->eyec->salt = new_salt();
    if (!e->eyec->slots) { PyErr_NoMemory(); return -1; }
    e->expc->width = e->maxchild;
    {
        /* about an eighth of the table's bytes */
        size_t per = sizeof(ExpHead) + (size_t)e->expc->width * sizeof(ExpChild);
        size_t slots = ((size_t)tt_size * EXPMUL) / per;
        if (slots < 1024) slots = 1024;
        size_t p2 = 1024;
        while (p2 * 2 <= slots) p2 <<= 1;
        e->expc->mask = p2 - 1;
        e->expc->heads = blk_alloc(p2 * sizeof(ExpHead), BLK_KEYED_EXP);
        /* the children's block at the same size for every problem of this table size (the
         * part a narrower region leaves unused is never touched), so that the next engine of
         * the process reuses it whatever its region (blk_alloc) */
        size_t kids = p2 * (size_t)e->expc->width * sizeof(ExpChild);
        size_t fixed = (size_t)tt_size * EXPMUL;
        e->expc->kids = blk_alloc(kids > fixed ? kids : fixed, BLK_RAW);
        e->expc->salt = new_salt();
        if (!e->expc->heads || !e->expc->kids) { PyErr_NoMemory(); return -1; }
    }
    e->alone_limit = 200000;
    e->patterns = patterns > 0 ? patterns : 0;
    e->killer = killer;
    if (e->patterns) {
        e->pat_wins = blk_alloc(PAT_SLOTS * sizeof(uint32_t), BLK_PATTERN);
        e->pat_avail = blk_alloc(PAT_SLOTS * sizeof(uint32_t), BLK_PATTERN);
        e->pat_log = blk_alloc(PAT_LOG * sizeof(uint32_t), BLK_RAW);
        if (!e->pat_wins || !e->pat_avail || !e->pat_log) { PyErr_NoMemory(); return -1; }
    }
    e->alone_mask = pow2_at_least((size_t)e->alone_limit * 2) - 1;
    e->alone_stack = blk_alloc(sizeof(Board) * (MAXP + 2), BLK_RAW);
    if (!e->childc->slots || !e->alone_stack || !ps_init(&e->hist, 1 << 16)
        || !ps_init(&e->pairs, 1 << 14)) {
        PyErr_NoMemory();
        return -1;
    }
    self->root = e->board;
    return 0;
}

static void Core_dealloc(CoreObject *self) {
    engine_free(self->e);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *winner_obj(int w) { return PyLong_FromLong(w); }

static int ready(CoreObject *self) {
    if (!self->e) {
        PyErr_SetString(PyExc_RuntimeError, "the engine is not set up");
        return 0;
    }
    return await_search();
}

/* solve(color, balance, passed) -> winner, the root being the problem's position */
static PyObject *Core_solve(CoreObject *self, PyObject *args) {
    int color, balance, passed = 0;
    if (!PyArg_ParseTuple(args, "ii|p", &color, &balance, &passed) || !ready(self)) return NULL;
    Engine *e = self->e;
    e->board = self->root;
    start_path(e);
    i64 phi, delta;
    int ok = root(e, color, balance, passed, 0, &phi, &delta);
    e->board = self->root;
    if (!ok) { raise_stop(e); return NULL; }
    return winner_obj(phi == 0 ? color : 3 - color);
}

/* solve_after(color, move, balance) -> winner after color's move (a board point, -1 for a pass)
 * at the root, or None when the move is illegal */
static PyObject *Core_solve_after(CoreObject *self, PyObject *args) {
    int color, balance;
    long move;
    if (!PyArg_ParseTuple(args, "ili", &color, &move, &balance) || !ready(self)) return NULL;
    Engine *e = self->e;
    const Geo *g = &e->g;
    e->board = self->root;
    start_path(e);
    int opp = 3 - color, ok;
    i64 phi = 1, delta = 1;
    if (move == PASS) {
        ps_push(&e->hist, e->board.hash, 1, stone_count(g, &e->board));
        ok = root(e, opp, balance, 1, 1, &phi, &delta);
    } else {
        int c = crop_point(e, move);
        B empty;
        empty_of(g, &e->board, &empty);
        if (c < 0 || !bhas(&empty, c) || !bhas(&e->region, c)) Py_RETURN_NONE;
        B cap;
        if (!play(g, &e->board, c, color, &cap)) { e->board = self->root; Py_RETURN_NONE; }
        int w = static_after(e, color, &cap);
        if (w) { e->board = self->root; return winner_obj(w); }
        int cnt = stone_count(g, &e->board);
        ps_push(&e->hist, e->board.hash, 1, cnt);
        cm_set(&e->seen, cnt);
        ok = root(e, opp, balance, 0, 1, &phi, &delta);
    }
    e->board = self->root;
    if (!ok) { raise_stop(e); return NULL; }
    return winner_obj(delta == 0 ? color : opp);
}

/* Replay a line of (color, move, threat) from the root under the rules, leaving the path on
 * the position reached (`threat`: the play repeats an arrangement and a ko threat made it
 * legal; the caller knows the balance). Returns the winner the line already fixed (a capture
 * of the target, an alive target, a repeated pair of passes), 0 if none, -1 for an illegal
 * line (ValueError set) or a stop (e->stop set); *passed and *depth are the state reached. */
static int replay(CoreObject *self, PyObject *moves, int *passed, int *depth) {
    Engine *e = self->e;
    const Geo *g = &e->g;
    e->board = self->root;
    start_path(e);
    *passed = 0;
    *depth = 0;
    PyObject *fast = PySequence_Fast(moves, "a sequence of (color, move)");
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    int result = 0;
    for (Py_ssize_t i = 0; i < n && !result; i++) {
        int color, threat;
        long move;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, i), "ilp", &color, &move,
                              &threat)) {
            Py_DECREF(fast);
            return -1;
        }
        int s0 = stone_count(g, &e->board);
        u64 h0 = e->board.hash;
        if (move == PASS) {
            if (*passed) {
                u64 key = pair_state(h0, 3 - color);
                (*depth)++;
                *passed = 0;
                if (ps_get(&e->pairs, key) >= 0) {
                    result = end_by_passes(e);
                    if (result < 0) break;
                    continue;
                }
                ps_push(&e->pairs, key, *depth, s0);
                e->pair_key ^= key;
                cm_set(&e->pair_counts, s0);
                e->hist.base = e->hist.top;
                e->hist.distinct = 0;
                ps_push(&e->hist, h0, *depth, s0);
                e->seen = e->pair_counts;
            } else {
                (*depth)++;
                ps_push(&e->hist, h0, *depth, s0);
                *passed = 1;
            }
            continue;
        }
        int c = crop_point(e, move);
        B empty, cap;
        empty_of(g, &e->board, &empty);
        if (c < 0 || !bhas(&empty, c) || !bhas(&e->region, c)
            || !play(g, &e->board, c, color, &cap)) {
            PyErr_Format(PyExc_ValueError, "move %zd of the line is illegal", i);
            result = -1;
            break;
        }
        int cnt = stone_count(g, &e->board);
        int at = ps_get(&e->hist, e->board.hash);
        (*depth)++;
        *passed = 0;
        if ((at >= 0) != (threat != 0)) {
            PyErr_Format(PyExc_ValueError, "move %zd of the line %s", i,
                         at >= 0 ? "repeats a position" : "is no repetition");
            result = -1;
            break;
        }
        if (at >= 0) {
            e->hist.base = e->hist.top;
            e->hist.distinct = 0;
            ps_push(&e->hist, h0, *depth - 1, s0);
            ps_push(&e->hist, e->board.hash, *depth, cnt);
            CM sn = e->pair_counts;
            cm_set(&sn, s0);
            cm_set(&sn, cnt);
            e->seen = sn;
        } else {
            ps_push(&e->hist, e->board.hash, *depth, cnt);
            cm_set(&e->seen, cnt);
        }
        result = static_after(e, color, &cap);
    }
    Py_DECREF(fast);
    return result;
}

/* solve_line(moves, balance, to_move, max_work) -> winner with to_move to play after the line
 * at that balance (0: not settled within max_work nodes, when max_work > 0) */
static PyObject *Core_solve_line(CoreObject *self, PyObject *args) {
    PyObject *moves;
    int balance, to_move;
    long long max_work;
    if (!PyArg_ParseTuple(args, "OiiL", &moves, &balance, &to_move, &max_work) || !ready(self))
        return NULL;
    Engine *e = self->e;
    int passed, depth;
    int w = replay(self, moves, &passed, &depth);
    if (w < 0) {
        e->board = self->root;
        if (e->stop) { raise_stop(e); }
        return NULL;
    }
    if (w) { e->board = self->root; return winner_obj(w); }
    u64 own_max = e->max_nodes;
    u64 stop_at = max_work > 0 ? e->nodes + (u64)max_work + 1 : 0;
    int bounded = stop_at && (!own_max || stop_at < own_max);
    if (bounded) {
        e->max_nodes = stop_at;
        if (e->next_check > stop_at) e->next_check = stop_at;
    }
    i64 phi, delta;
    int ok = root(e, to_move, balance, passed, depth, &phi, &delta);
    if (bounded) {
        e->max_nodes = own_max;
        e->next_check = e->nodes + 1;
    }
    e->board = self->root;
    if (!ok) {
        if (bounded && e->stop == STOP_NODES) { e->stop = 0; return winner_obj(0); }
        raise_stop(e);
        return NULL;
    }
    return winner_obj(phi == 0 ? to_move : 3 - to_move);
}

/* known_line(moves, balance, to_move) -> (winner, work): a proof the table holds and may use
 * after the line, without a search; (0, 0) if none */
static PyObject *Core_known_line(CoreObject *self, PyObject *args) {
    PyObject *moves;
    int balance, to_move;
    if (!PyArg_ParseTuple(args, "Oii", &moves, &balance, &to_move) || !ready(self)) return NULL;
    Engine *e = self->e;
    int passed, depth;
    int w = replay(self, moves, &passed, &depth);
    if (w < 0) {
        e->board = self->root;
        if (e->stop) raise_stop(e);
        return NULL;
    }
    if (w) { e->board = self->root; return Py_BuildValue("(iK)", w, (unsigned long long)0); }
    /* the proof must fit the path above the position: the history without its last entry */
    PathEntry last = e->hist.e[e->hist.top - 1];
    ps_pop(&e->hist);
    CM seen;
    memset(&seen, 0, sizeof(CM));
    cm_or(&seen, &e->pair_counts);
    for (int i = e->hist.base; i < e->hist.top; i++) cm_set(&seen, e->hist.e[i].cnt);
    PathView pv = {e->hist.base, 0, -1, 0, -1};
    i64 phi, delta;
    Created cr;
    lookup(e, to_move, balance, passed, e->board.hash, 1, 1, &seen, &pv, e->pair_key, &phi, &delta,
           &cr);
    ps_push(&e->hist, last.key, last.idx, last.cnt);
    u64 work = 0;
    const Solved *s = solved_get(e->solved, solved_key(e->board.hash, to_move, passed));
    if (s) work = s->work;
    e->board = self->root;
    if (phi && delta) return Py_BuildValue("(iK)", 0, (unsigned long long)0);
    return Py_BuildValue("(iK)", phi == 0 ? to_move : 3 - to_move, (unsigned long long)work);
}

/* share(other): use the other engine's caches (the same problem) */
static PyObject *Core_share(CoreObject *self, PyObject *other);
/* borrow(other, winner): read the other engine's wins for winner */
static PyObject *Core_borrow(CoreObject *self, PyObject *args);

static PyTypeObject CoreType;

static PyObject *Core_share(CoreObject *self, PyObject *other) {
    if (!PyObject_TypeCheck(other, &CoreType) || !ready(self) || !((CoreObject *)other)->e) {
        PyErr_SetString(PyExc_TypeError, "share() needs another engine");
        return NULL;
    }
    Engine *e = self->e, *o = ((CoreObject *)other)->e;
    if (o->g.npts != e->g.npts || !beq(&o->region, &e->region, e->g.nw)
        || !beq(&o->target, &e->target, e->g.nw) || o->maxchild != e->maxchild) {
        PyErr_SetString(PyExc_ValueError, "share() needs an engine for the same problem");
        return NULL;
    }
    /* counted in C, not by Python references: two engines that share and borrow from each
     * other make no reference cycle */
    o->caches->refs++;
    caches_release(e->caches);
    e->caches = o->caches;
    e->bensonc = &e->caches->benson;
    e->lostc = &e->caches->lost;
    e->alonec = &e->caches->alone;
    e->childc = &e->caches->child;
    e->expc = &e->caches->exp;
    e->eyec = &e->caches->eye;
    Py_RETURN_NONE;
}

static PyObject *Core_borrow(CoreObject *self, PyObject *args) {
    PyObject *other;
    int winner;
    if (!PyArg_ParseTuple(args, "O!i", &CoreType, &other, &winner) || !ready(self)) return NULL;
    Engine *o = ((CoreObject *)other)->e;
    if (!o) { PyErr_SetString(PyExc_ValueError, "borrow() needs a set-up engine"); return NULL; }
    o->solved->refs++;
    table_release(self->e->borrowed);
    self->e->borrowed = o->solved;
    self->e->borrowed_winner = winner;
    Py_RETURN_NONE;
}

static PyObject *Core_get_nodes(CoreObject *self, void *c) {
    (void)c;
    return PyLong_FromUnsignedLongLong(self->e ? self->e->nodes : 0);
}
static PyObject *Core_get_depth_sum(CoreObject *self, void *c) {
    (void)c;
    return PyLong_FromUnsignedLongLong(self->e ? self->e->depth_sum : 0);
}
static PyObject *Core_get_depth_max(CoreObject *self, void *c) {
    (void)c;
    return PyLong_FromLong(self->e ? self->e->depth_max : 0);
}
static int Core_set_nodes(CoreObject *self, PyObject *v, void *c) {
    (void)c;
    unsigned long long n = PyLong_AsUnsignedLongLong(v);
    if (n == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    if (self->e) {
        self->e->nodes = n;
        self->e->next_check = n + 1;
    }
    return 0;
}
static PyObject *Core_get_max_nodes(CoreObject *self, void *c) {
    (void)c;
    if (!self->e || !self->e->max_nodes) Py_RETURN_NONE;
    return PyLong_FromUnsignedLongLong(self->e->max_nodes);
}
static int Core_set_max_nodes(CoreObject *self, PyObject *v, void *c) {
    (void)c;
    if (!self->e) return 0;
    if (v == Py_None) { self->e->max_nodes = 0; return 0; }
    unsigned long long n = PyLong_AsUnsignedLongLong(v);
    if (n == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    self->e->max_nodes = n ? n : 1;
    self->e->next_check = self->e->nodes + 1;
    return 0;
}
static PyObject *Core_get_deadline(CoreObject *self, void *c) {
    (void)c;
    if (!self->e || self->e->deadline <= 0) Py_RETURN_NONE;
    return PyFloat_FromDouble(self->e->deadline);
}
static int Core_set_deadline(CoreObject *self, PyObject *v, void *c) {
    (void)c;
    if (!self->e) return 0;
    if (v == Py_None) { self->e->deadline = 0; return 0; }
    double d = PyFloat_AsDouble(v);
    if (d == -1.0 && PyErr_Occurred()) return -1;
    self->e->deadline = d > 0 ? d : 1e-9;
    self->e->next_check = self->e->nodes + 1;
    return 0;
}
static PyObject *Core_get_interrupt(CoreObject *self, void *c) {
    (void)c;
    if (!self->e || !self->e->interrupt) Py_RETURN_NONE;
    Py_INCREF(self->e->interrupt);
    return self->e->interrupt;
}
static int Core_set_interrupt(CoreObject *self, PyObject *v, void *c) {
    (void)c;
    if (!self->e) { PyErr_SetString(PyExc_RuntimeError, "the engine is not set up"); return -1; }
    if (v == NULL || v == Py_None) v = NULL;
    else if (!PyObject_HasAttrString(v, "is_set")) {
        PyErr_SetString(PyExc_TypeError, "interrupt needs an is_set() method (a threading.Event)");
        return -1;
    }
    Py_XINCREF(v);
    Py_XSETREF(self->e->interrupt, v);
    return 0;
}
static PyObject *Core_get_root_move(CoreObject *self, void *c) {
    (void)c;
    if (!self->e || self->e->root_move == -3) Py_RETURN_NONE;
    if (self->e->root_move == PASS) return PyLong_FromLong(-1);
    return PyLong_FromLong(self->e->g.board_of[self->e->root_move]);
}
static PyObject *Core_stats(CoreObject *self, PyObject *unused) {
    (void)unused;
    if (!ready(self)) return NULL;
    Engine *e = self->e;
    size_t bytes = e->solved->nbuckets * WAYS * (sizeof(Solved) + sizeof(SolvedBlooms))
                   + e->work.nbuckets * WAYS * sizeof(Work);
    if (e->caches->refs == 1)
        bytes += (e->bensonc->mask + 1) * 9 + (e->lostc->mask + 1) * 9 + (e->alonec->mask + 1) * 9
                 + (e->childc->mask + 1) * sizeof(ChildInfo)
                 + (e->eyec->mask + 1) * sizeof(EyeWin);
    return Py_BuildValue("{s:K,s:K,s:K,s:i,s:i}", "solved", (unsigned long long)e->solved->count,
                         "work", (unsigned long long)e->work.count, "table_bytes",
                         (unsigned long long)bytes, "words", e->g.nw, "frames", e->nframes);
}

static PyMethodDef Core_methods[] = {
    {"solve", (PyCFunction)Core_solve, METH_VARARGS, "solve(color, balance, passed=False) -> winner"},
    {"solve_after", (PyCFunction)Core_solve_after, METH_VARARGS,
     "solve_after(color, move, balance) -> winner or None"},
    {"solve_line", (PyCFunction)Core_solve_line, METH_VARARGS,
     "solve_line(moves, balance, to_move, max_work) -> winner (0: not within max_work)"},
    {"known_line", (PyCFunction)Core_known_line, METH_VARARGS,
     "known_line(moves, balance, to_move) -> (winner, work)"},
    {"share", (PyCFunction)Core_share, METH_O, "share(other): use its caches"},
    {"borrow", (PyCFunction)Core_borrow, METH_VARARGS, "borrow(other, winner)"},
    {"stats", (PyCFunction)Core_stats, METH_NOARGS, "table and cache figures"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef Core_getset[] = {
    {"nodes", (getter)Core_get_nodes, (setter)Core_set_nodes, "nodes searched", NULL},
    {"max_nodes", (getter)Core_get_max_nodes, (setter)Core_set_max_nodes, "node budget", NULL},
    {"deadline", (getter)Core_get_deadline, (setter)Core_set_deadline,
     "time.monotonic() at which to stop", NULL},
    {"interrupt", (getter)Core_get_interrupt, (setter)Core_set_interrupt,
     "an object whose is_set() stops the search when true (a threading.Event), or None", NULL},
    {"root_move", (getter)Core_get_root_move, NULL, "a winning move of the last root proved", NULL},
    {"depth_sum", (getter)Core_get_depth_sum, NULL, "the depths of the nodes searched, summed", NULL},
    {"depth_max", (getter)Core_get_depth_max, NULL, "the deepest node searched", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "tsumego.search._core.Core",
    .tp_basicsize = sizeof(CoreObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The compiled df-pn search of one problem and one game.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Core_init,
    .tp_dealloc = (destructor)Core_dealloc,
    .tp_methods = Core_methods,
    .tp_getset = Core_getset,
};

/* eye_locate(points, touching) -> (shape, order): es_locate, for the differential tests */
static PyObject *eye_locate(PyObject *mod, PyObject *args) {
    (void)mod;
    PyObject *points, *touching;
    if (!PyArg_ParseTuple(args, "OO", &points, &touching)) return NULL;
    Py_ssize_t n = PySequence_Size(points);
    if (n < 1 || n > EMAX || PySequence_Size(touching) != n) {
        PyErr_SetString(PyExc_ValueError, "eye_locate: 1 to 7 points, each with a flag");
        return NULL;
    }
    int xs[EMAX], ys[EMAX], touch[EMAX], order[EMAX];
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *pt = PySequence_GetItem(points, i), *t = PySequence_GetItem(touching, i);
        int ok = pt && t && PyArg_ParseTuple(pt, "ii", &xs[i], &ys[i]);
        if (ok) touch[i] = PyObject_IsTrue(t);
        Py_XDECREF(pt);
        Py_XDECREF(t);
        if (!ok || touch[i] < 0) return NULL;
    }
    int k = es_locate((int)n, xs, ys, touch, order);
    PyObject *o = PyList_New(n);
    if (!o) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) PyList_SET_ITEM(o, i, PyLong_FromLong(order[i]));
    return Py_BuildValue("(iN)", k, o);
}

/* eye_plan(shape, att, dfn, attacker_to_move) -> sorted content indices or None: es_plan with
 * a cleared memo, for the differential tests */
static PyObject *eye_plan(PyObject *mod, PyObject *args) {
    (void)mod;
    int k, a, d, atm;
    if (!PyArg_ParseTuple(args, "iiip", &k, &a, &d, &atm)) return NULL;
    if (k < 0 || k >= ES.nshapes || a < 0 || d < 0 || (a & d)
        || (a | d) >> ES.shapes[k].n) {
        PyErr_SetString(PyExc_ValueError, "eye_plan: no such shape or content");
        return NULL;
    }
    if (!es_memo_alloc()) return PyErr_NoMemory();
    es_memo_clear();
    u64 set[SETW];
    if (!es_plan(k, a, d, atm, set)) Py_RETURN_NONE;
    PyObject *o = PyList_New(0);
    for (int c = 0; o && c < SETW * 64; c++) {
        if (!(set[c >> 6] >> (c & 63) & 1)) continue;
        PyObject *v = PyLong_FromLong(c);
        if (!v || PyList_Append(o, v) < 0) { Py_XDECREF(v); Py_DECREF(o); return NULL; }
        Py_DECREF(v);
    }
    return o;
}

static PyMethodDef module_methods[] = {
    {"load_eyespace", load_eyespace, METH_VARARGS,
     "load_eyespace(cells, sizes, tadj, values): the eye-space table's arrays"},
    {"eye_locate", eye_locate, METH_VARARGS, "eye_locate(points, touching) -> (shape, order)"},
    {"eye_plan", eye_plan, METH_VARARGS,
     "eye_plan(shape, att, dfn, attacker_to_move) -> content indices or None"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef coremodule = {PyModuleDef_HEAD_INIT, "_core",
                                        "The compiled search core.", -1, module_methods,
                                        NULL, NULL, NULL, NULL};

/* how setup.py built the core: "profile-guided", "instrumented" (its training run) or "plain" */
#ifndef TSUMEGO_BUILD
#define TSUMEGO_BUILD "plain"
#endif

PyMODINIT_FUNC PyInit__core(void) {
    if (PyType_Ready(&CoreType) < 0) return NULL;
    PyObject *m = PyModule_Create(&coremodule);
    if (!m) return NULL;
    Py_INCREF(&CoreType);
    PyModule_AddObject(m, "Core", (PyObject *)&CoreType);
    Stopped = PyErr_NewException("tsumego.search._core.Stopped", NULL, NULL);
    Py_INCREF(Stopped);
    PyModule_AddObject(m, "Stopped", Stopped);
    PyModule_AddIntConstant(m, "MAX_POINTS", MAXP);
    PyModule_AddStringConstant(m, "BUILD", TSUMEGO_BUILD);
    return m;
}
