// Othello on an OpenCL device: the CPU's rules (board.rs), bit for bit, and
// one work-item per position. No recursion on a GPU: both searches keep an
// explicit stack of frames in private memory.
//
// A position is two ulongs: the discs of the side to move, then the other's.

#define NOT_EDGE_FILES 0x7E7E7E7E7E7E7E7EUL
#define NOT_FILE_A 0xFEFEFEFEFEFEFEFEUL
#define NOT_FILE_H 0x7F7F7F7F7F7F7F7FUL
// Frames: a game lasts at most a move and a pass per empty square; the
// host sends deeper searches of more empties to the CPU.
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
kernel void perft(global const ulong* positions, uint depth, global ulong* leaves, uint n) {
    size_t i = get_global_id(0);
    if (i >= n) {
        return;
    }
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

// The evaluators the search kernel knows, as the CPU's (eval.rs, endgame.rs).
#define EVAL_MIDGAME 0
#define EVAL_EXACT 1
// splitpoint::WIN and a score below any.
#define WIN 31000
#define NO_SCORE (-32767)
#define CORNERS 0x8100000000000081UL
#define EDGES 0xFF818181818181FFUL

// The empty squares next to `discs` (eval.rs's neighbours).
ulong neighbours(ulong discs, ulong empties) {
    ulong h = discs & NOT_EDGE_FILES;
    ulong around = (h << 1) | (h >> 1) | (discs << 8) | (discs >> 8) | (h << 9) | (h >> 9)
        | (h << 7) | (h >> 7);
    ulong a_file = discs & 0x0101010101010101UL;
    ulong h_file = discs & 0x8080808080808080UL;
    ulong edges = (a_file << 1) | (a_file << 9) | (a_file >> 7) | (h_file >> 1) | (h_file >> 9)
        | (h_file << 7);
    return (around | edges) & empties;
}

// OthelloEval::score: mobility, potential mobility, corners and the squares
// next to empty corners, edges, and discs once few squares are left.
int midgame(ulong p, ulong o) {
    ulong empties = ~(p | o);
    int score = 70 * ((int)popcount(mobility(p, o)) - (int)popcount(mobility(o, p)));
    score += 25 * ((int)popcount(neighbours(o, empties)) - (int)popcount(neighbours(p, empties)));
    // Each corner, its X-square and its two C-squares.
    const ulong corner[4] = {1UL << 0, 1UL << 7, 1UL << 56, 1UL << 63};
    const ulong x_square[4] = {1UL << 9, 1UL << 14, 1UL << 49, 1UL << 54};
    const ulong c_squares[4] = {(1UL << 1) | (1UL << 8), (1UL << 6) | (1UL << 15),
                                (1UL << 57) | (1UL << 48), (1UL << 62) | (1UL << 55)};
    for (int i = 0; i < 4; i++) {
        if (p & corner[i]) {
            score += 700;
        } else if (o & corner[i]) {
            score -= 700;
        } else {
            score -= 250 * ((int)((p & x_square[i]) != 0) - (int)((o & x_square[i]) != 0));
            score -= 80 * ((int)popcount(p & c_squares[i]) - (int)popcount(o & c_squares[i]));
        }
    }
    score += 15 * ((int)popcount(p & EDGES) - (int)popcount(o & EDGES));
    if (popcount(empties) <= 12) {
        score += 30 * ((int)popcount(p) - (int)popcount(o));
    }
    return clamp(score, -15000, 15000);
}

// A finished game `ply` plies below the search's root: the exact disc
// count, or the midgame evaluator's win by distance.
int terminal(ulong p, ulong o, int eval, int ply) {
    if (eval == EVAL_EXACT) {
        return final_score(p, o);
    }
    int diff = (int)popcount(p) - (int)popcount(o);
    return diff > 0 ? WIN - ply : (diff < 0 ? -WIN + ply : 0);
}

// A position the depth limit stops at; OthelloExact's is the midgame score
// in discs (POINTS_PER_DISC, 100), clamped to the final scores' range.
int evaluate(ulong p, ulong o, int eval) {
    return eval == EVAL_EXACT ? clamp(midgame(p, o) / 100, -64, 64) : midgame(p, o);
}

// Nodes with at least this many plies and more than this many empty squares
// left order their moves by key (in an endgame the depth is the game's end:
// only the empties say how near the leaves a node is).
#define ORDER_DEPTH 4
#define ORDER_EMPTIES 6
#define X_SQUARES 0x0042000000004200UL

// OthelloEval::move_key: corners first, X-squares next to an empty corner
// last, otherwise the move leaving the opponent fewest replies first.
int move_key(ulong p, ulong o, int sq) {
    ulong bit = 1UL << sq;
    ulong fl = flips(sq, p, o);
    int key = -16 * (int)popcount(mobility(o ^ fl, p | fl | bit));
    if (bit & CORNERS) {
        key += 1000;
    } else if (bit & X_SQUARES) {
        int corner = sq == 9 ? 0 : (sq == 14 ? 7 : (sq == 49 ? 56 : 63));
        if (((p | o) & (1UL << corner)) == 0) {
            key -= 1000;
        }
    }
    return key;
}

typedef struct {
    ulong p, o, moves;
    int alpha, beta, best, best_move, current, pass;
} SearchFrame;

// Enters the node (p, o) searched in (alpha, beta) at stack height `top`
// (its remaining depth is depth - top): a finished game or the horizon
// returns through `ret` (and sets `returning`), anything else is pushed.
#define ENTER(P, O, A, B)                                                  \
    do {                                                                   \
        visited++;                                                         \
        ulong em_ = mobility((P), (O));                                    \
        if (em_ == 0 && mobility((O), (P)) == 0) {                         \
            ret = terminal((P), (O), eval, ply + top);                     \
            returning = 1;                                                 \
        } else if (depth - top <= 0) {                                     \
            ret = evaluate((P), (O), eval);                                \
            returning = 1;                                                 \
        } else {                                                           \
            SearchFrame* e_ = &stack[top++];                               \
            e_->p = (P);                                                   \
            e_->o = (O);                                                   \
            e_->moves = em_;                                               \
            e_->alpha = (A);                                               \
            e_->beta = (B);                                                \
            e_->best = NO_SCORE;                                           \
            e_->best_move = -1;                                            \
            e_->pass = em_ == 0;                                           \
            returning = 0;                                                 \
        }                                                                  \
    } while (0)

// Fail-soft alpha-beta below each position, as splitpoint's negamax defines
// the value: `depth` plies (a pass is one), a finished game scored at once,
// the evaluator at the horizon. One subtree per work-item, each with its
// own depth, ply (for wins by distance) and window: `params` holds four ints
// per position (depth, ply, alpha, beta). Moves are ordered by key far from
// the leaves (ORDER_DEPTH, ORDER_EMPTIES), corners first near them. Writes each subtree's score, the move that gave it
// (a square, 64 for a pass, -1 when the root is a leaf) and the nodes
// visited. The host keeps depth within MAX_FRAMES. The global size is `n`
// rounded up to whole work-groups; the work-items past `n` do nothing.
kernel void search(global const ulong* positions, global const int* params, int eval,
                   global int* scores, global int* best_moves, global ulong* nodes, uint n) {
    size_t i = get_global_id(0);
    if (i >= n) {
        return;
    }
    ulong2 root = (ulong2)(positions[2 * i], positions[2 * i + 1]);
    int depth = params[4 * i];
    int ply = params[4 * i + 1];
    SearchFrame stack[MAX_FRAMES];
    int top = 0;
    int ret = 0;
    int returning = 0;
    int root_move = -1;
    ulong visited = 0;
    ENTER(root.x, root.y, params[4 * i + 2], params[4 * i + 3]);
    while (1) {
        if (returning) {
            if (top == 0) {
                break;
            }
            SearchFrame* f = &stack[top - 1];
            int s = -ret;
            if (s > f->best) {
                f->best = s;
                f->best_move = f->current;
            }
            if (f->best >= f->beta || (f->moves == 0 && !f->pass)) {
                ret = f->best;
                if (top == 1) {
                    root_move = f->best_move;
                }
                top--;
                continue;
            }
            returning = 0;
        }
        SearchFrame* f = &stack[top - 1];
        if (f->pass) {
            f->pass = 0;
            f->current = 64;
            ENTER(f->o, f->p, -f->beta, -f->alpha);
            continue;
        }
        int sq;
        if (depth - top + 1 >= ORDER_DEPTH && popcount(~(f->p | f->o)) > ORDER_EMPTIES
            && (f->moves & (f->moves - 1))) {
            // Far from the leaves: the best-keyed move first, as the CPU
            // orders them (the cost is small beside the subtree's).
            int best_key = -100000;
            sq = 0;
            for (ulong m = f->moves; m; m &= m - 1) {
                int s = (int)(63 - clz(m & -m));
                int k = move_key(f->p, f->o, s);
                if (k > best_key) {
                    best_key = k;
                    sq = s;
                }
            }
        } else {
            // Near the leaves: corners first, then squares in order.
            ulong pick = f->moves & CORNERS;
            if (pick == 0) {
                pick = f->moves;
            }
            sq = (int)(63 - clz(pick & -pick));
        }
        f->moves &= ~(1UL << sq);
        f->current = sq;
        ulong fl = flips(sq, f->p, f->o);
        int a = max(f->alpha, f->best);
        ENTER(f->o ^ fl, f->p | fl | (1UL << sq), -f->beta, -a);
    }
    scores[i] = ret;
    best_moves[i] = root_move;
    nodes[i] = visited;
}
