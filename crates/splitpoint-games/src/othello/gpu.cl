// Othello on an OpenCL device: the CPU's rules (board.rs), bit for bit, and
// one work-item per position. No recursion on a GPU: both searches keep an
// explicit stack of frames in private memory.
//
// A position is two ulongs: the discs of the side to move, then the other's.

#define NOT_EDGE_FILES 0x7E7E7E7E7E7E7E7EUL
#define NOT_FILE_A 0xFEFEFEFEFEFEFEFEUL
#define NOT_FILE_H 0x7F7F7F7F7F7F7F7FUL
// Frames: a game lasts at most a move and a pass per empty square.
#define MAX_FRAMES 64

// The squares where `p` may move (Kogge-Stone fill, as board.rs's mobility).
ulong both_ways(ulong p, ulong mask, uint d) {
    ulong l = mask & (p << d);
    l |= mask & (l << d);
    ulong pre_l = mask & (mask << d);
    l |= pre_l & (l << (2 * d));
    l |= pre_l & (l << (2 * d));
    ulong r = mask & (p >> d);
    r |= mask & (r >> d);
    ulong pre_r = mask & (mask >> d);
    r |= pre_r & (r >> (2 * d));
    r |= pre_r & (r >> (2 * d));
    return (l << d) | (r >> d);
}

ulong mobility(ulong p, ulong o) {
    ulong inner = o & NOT_EDGE_FILES;
    ulong moves = both_ways(p, inner, 1) | both_ways(p, o, 8) | both_ways(p, inner, 7)
        | both_ways(p, inner, 9);
    return moves & ~(p | o);
}

// One step in direction `d` (0..8), off the board's edges.
ulong step(ulong x, int d) {
    switch (d) {
    case 0: return (x << 1) & NOT_FILE_A;
    case 1: return (x >> 1) & NOT_FILE_H;
    case 2: return x << 8;
    case 3: return x >> 8;
    case 4: return (x << 9) & NOT_FILE_A;
    case 5: return (x << 7) & NOT_FILE_H;
    case 6: return (x >> 7) & NOT_FILE_A;
    default: return (x >> 9) & NOT_FILE_H;
    }
}

// The discs `p` flips by moving on the empty square `sq`.
ulong flips(int sq, ulong p, ulong o) {
    ulong flipped = 0;
    for (int d = 0; d < 8; d++) {
        ulong run = 0;
        ulong x = step(1UL << sq, d);
        while (x & o) {
            run |= x;
            x = step(x, d);
        }
        if (x & p) {
            flipped |= run;
        }
    }
    return flipped;
}

// A finished game's score for `p`: the disc difference, the empty squares
// going to the winner (board.rs's final_score).
int final_score(ulong p, ulong o) {
    int mine = popcount(p);
    int theirs = popcount(o);
    int empties = 64 - mine - theirs;
    int diff = mine - theirs;
    return diff > 0 ? diff + empties : (diff < 0 ? diff - empties : 0);
}

typedef struct {
    ulong p, o, moves;
    int pass;
} PerftFrame;

// Leaves `depth` plies below each position, as splitpoint::perft counts
// them: a pass is a move, a finished game before the last ply one leaf.
kernel void perft(global const ulong* positions, uint depth, global ulong* leaves) {
    size_t i = get_global_id(0);
    ulong2 root = (ulong2)(positions[2 * i], positions[2 * i + 1]);
    if (depth == 0) {
        leaves[i] = 1;
        return;
    }
    PerftFrame stack[MAX_FRAMES];
    ulong count = 0;
    int top = 0;
    ulong m = mobility(root.x, root.y);
    if (m == 0 && mobility(root.y, root.x) == 0) {
        leaves[i] = 1;
        return;
    }
    stack[0].p = root.x;
    stack[0].o = root.y;
    stack[0].moves = m;
    stack[0].pass = m == 0;
    top = 1;
    while (top > 0) {
        PerftFrame* f = &stack[top - 1];
        ulong cp, co;
        if (f->pass) {
            f->pass = 0;
            cp = f->o;
            co = f->p;
        } else if (f->moves) {
            int sq = (int)(63 - clz(f->moves & -f->moves));
            f->moves &= f->moves - 1;
            ulong fl = flips(sq, f->p, f->o);
            cp = f->o ^ fl;
            co = f->p | fl | (1UL << sq);
        } else {
            top--;
            continue;
        }
        uint left = depth - (uint)top;
        if (left == 0) {
            count++;
            continue;
        }
        ulong cm = mobility(cp, co);
        if (cm == 0 && mobility(co, cp) == 0) {
            count++;
            continue;
        }
        PerftFrame* c = &stack[top];
        c->p = cp;
        c->o = co;
        c->moves = cm;
        c->pass = cm == 0;
        top++;
    }
    leaves[i] = count;
}

typedef struct {
    ulong p, o, moves;
    int alpha, beta, best, pass;
} SolveFrame;

// Pushes the node (p, o) searched in (alpha, beta), or, when its game is
// over, returns through *ret (and *returning).
#define ENTER(P, O, A, B)                                                  \
    do {                                                                   \
        ulong em_ = mobility((P), (O));                                    \
        if (em_ == 0 && mobility((O), (P)) == 0) {                         \
            ret = final_score((P), (O));                                   \
            returning = 1;                                                 \
        } else {                                                           \
            SolveFrame* e_ = &stack[top++];                                \
            e_->p = (P);                                                   \
            e_->o = (O);                                                   \
            e_->moves = em_;                                               \
            e_->alpha = (A);                                               \
            e_->beta = (B);                                                \
            e_->best = -127;                                               \
            e_->pass = em_ == 0;                                           \
            returning = 0;                                                 \
        }                                                                  \
    } while (0)

// The exact final score of each position for its side to move (fail-soft
// alpha-beta in the window given, moves in square order), and the nodes
// visited.
kernel void solve(global const ulong* positions, int alpha, int beta,
                  global int* scores, global ulong* nodes) {
    size_t i = get_global_id(0);
    ulong2 root = (ulong2)(positions[2 * i], positions[2 * i + 1]);
    SolveFrame stack[MAX_FRAMES];
    int top = 0;
    int ret = 0;
    int returning = 0;
    ulong visited = 1;
    ENTER(root.x, root.y, alpha, beta);
    while (1) {
        if (returning) {
            if (top == 0) {
                break;
            }
            SolveFrame* f = &stack[top - 1];
            int s = -ret;
            if (f->pass) {
                ret = s;
                top--;
                continue;
            }
            if (s > f->best) {
                f->best = s;
            }
            if (f->best >= f->beta || f->moves == 0) {
                ret = f->best;
                top--;
                continue;
            }
            returning = 0;
        }
        SolveFrame* f = &stack[top - 1];
        visited++;
        if (f->pass) {
            ENTER(f->o, f->p, -f->beta, -f->alpha);
            continue;
        }
        int sq = (int)(63 - clz(f->moves & -f->moves));
        f->moves &= f->moves - 1;
        ulong fl = flips(sq, f->p, f->o);
        int a = max(f->alpha, f->best);
        ENTER(f->o ^ fl, f->p | fl | (1UL << sq), -f->beta, -a);
    }
    scores[i] = ret;
    nodes[i] = visited;
}
