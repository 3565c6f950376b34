"""Records the behaviour corpus of the rules core: what every variant does, position by position.

For every variant in `rules.VARIANTS`, a few games of seeded random play (through the public API
only), and for some a few games from near-finishing positions (`ENDINGS`), are written to tests/rules/data/corpus/<slug>.jsonl.gz. The first line holds the variant's
registry entry; then one line per game: its seed and, for each position reached, what `observe()`
saw there (FEN, turn, the legal turns and their labels, the outcome, the claimable draw, the
running score, the last turn's label, the board view, and what `play()` answers to a few texts:
labels of legal turns, near misses, junk and promotions without their piece, with every refusal's
sentence), then the text typed to reach the next position (the label of the turn played) and the
canonical turn `play()` must return for it. Where a position has more than `FULL` legal turns
(Balanced Swap, Donnybrook's drops), the turns are kept as a count and a hash, plus `SAMPLE` of
them in full with their labels. tests/rules/test_behaviour_corpus.py replays every game and compares.

Run by hand from the repository root, only when a change of behaviour is meant (say which in the
commit), for all variants or the named ones:

    PYTHONPATH=$PWD python -m tests.rules.corpus_record [slug ...]

The play is fixed by the seeds, so recording twice from the same code writes the same files.
"""
from __future__ import annotations

import gzip
import hashlib
import json
import random
import re
import sys
from pathlib import Path
from typing import Any

import rules
from rules.variants.kingswap.solver import solve

CORPUS = Path(__file__).parent / "data" / "corpus"
# The games of each variant: seed, every how many plies a position is observed (the others keep
# their FEN only), at most how many plies, and the chance that a ply plays a turn that ends the
# game when one of a few tried does (so that games reach their endings).
GAMES = ((11, 1, 40, 0.0), (22, 1, 40, 0.35), (33, 6, 240, 0.35), (44, 30, 800, 0.0))
# Games that start from near-finishing positions, for the endings seeded play rarely reaches (a
# stalemate, a repetition, a checkmate, a puzzle solved or failed): slug -> (seed, start FEN or None
# for the seed's start, the turns played first). Random play goes on from there as in the second
# game above, to at most ENDING_PLIES plies in all; every position is observed.
BACK_RANK = (7, "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", ("a1a8",))          # checkmate in FIDE chess
STALEMATE = (7, "k7/8/8/1Q6/8/8/8/7K w - - 0 1", ("b5b6",))                # stalemate in FIDE chess
SHUFFLE = (7, None, ("g1f3", "g8f6", "f3g1", "f6g8") * 4)                  # threefold, then fivefold
ENDINGS: dict[str, tuple[tuple[int, str | None, tuple[str, ...]], ...]] = {
    "standard": (BACK_RANK, STALEMATE, SHUFFLE, (7, None, ("f2f3", "e7e5", "g2g4", "d8h4"))),
    "counselor": (STALEMATE, SHUFFLE), "balanced-swap": (STALEMATE,), "kingmaker": (STALEMATE,),
    "xenophobic": (STALEMATE,), "spartan": (BACK_RANK, STALEMATE), "deadline": (BACK_RANK,), "glory": (BACK_RANK,),
    "moderation": (BACK_RANK,), "twilight": (BACK_RANK,), "ultimate": (BACK_RANK,), "series-helpmate": (BACK_RANK,),
    "safe-passage": ((7, "8/4K3/8/8/8/8/8/4k3 w - - 0 1", ("e7e8",)),
                     (62, "7r/8/1k2b2b/1n1p4/qn1P3N/1r2pK2/4N1BB/2R3RQ w - - 8 136", ("c1f1", "b4d3", "e2g3", "b5d6"))),
    "solitary-patience": ((7, "rnbqkbnr/pppppppp/8/8/8/N7/PPPPPPPP/R1BQKBNR w - - 0 1", ("a3b1",)),
                          (57, "1BN1k1B1/pppppppp/5Rn1/2R2b1q/4n2Q/2N3P1/PPPPPPrP/3rK1b1 b - - 52 159",
                           ("d1c1", "h4f4", "pass", "c3b1"))),
}
ENDING_PLIES = 24
SOLVER_NODES = 20_000      # KingSwap!'s solver budget for the tour its third game follows
FULL = 120                 # at most this many legal turns are kept in full; more as count, hash, sample
SAMPLE = 16                # turns (with labels) kept in full from a longer list
JUNK = ("", "   ", "Ke2", "O-O", "O-O-O", "0-0", "P@e4", "N@a1", "a1a1", "z9z9", "e2e4 e7e5", "hello", "Qxh7#",
        "e7e8", "e2-e4", "nf3", "E4", "b1c3/d4", "@", "0000", "a1 a2 a3", "resign")
SQUARE = re.compile(r"[a-z](?:1[0-6]|[1-9])")


def digest(lines: list[str]) -> str:
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()[:20]


def answer(game: rules.Game, text: str) -> list:
    """What play(text) does here: ["move", canonical] (taken back again), or the refusal's class,
    sentence and, for a promotion asked about, the turns offered."""
    try:
        move = game.play(text)
    except rules.PromotionChoice as exc:
        return ["choice", str(exc), exc.moves]
    except rules.IllegalMove as exc:
        return ["refused", str(exc)]
    fen = game.fen()
    taken = game.undo()
    return ["move", move, taken == move, fen]


def outcome_of(game: rules.Game) -> list | None:
    outcome = game.outcome
    if outcome is None:
        return None
    return [outcome.result, outcome.reason, outcome.winner, outcome.kind, outcome.score,
            json.loads(json.dumps(outcome.detail, sort_keys=True, default=repr))]


def view_of(game: rules.Game) -> str:
    """A hash of the board view's fields (named, so a new field with a default changes nothing)."""
    view = game.view()
    fields = {name: getattr(view, name) for name in ("files", "ranks", "pieces", "turn", "last_move", "checks",
                                                     "marks", "caption", "hands", "owners", "parts", "arrows")}
    fields = {name: dict(value) if hasattr(value, "items") else value for name, value in fields.items()}
    return digest([json.dumps(fields, sort_keys=True, default=list)])


def observe(game: rules.Game, probes: list[str], reload: bool) -> dict[str, Any]:
    """Everything the public API says about the current position (`probes`: texts to play)."""
    moves = sorted(game.legal_moves())
    seen: dict[str, Any] = {
        "fen": game.fen(), "turn": game.turn, "outcome": outcome_of(game), "claim": game.claimable_draw(),
        "score": game.score, "last": game.last_move_label(), "history": len(game.history), "view": view_of(game),
    }
    if len(moves) <= FULL:
        seen["moves"], seen["labels"] = moves, [game.label(move) for move in moves]
    else:   # labelling hundreds of turns takes long (each asks for the position's checks): a sample
        sample = sorted(random.Random(digest(moves)).sample(moves, SAMPLE))
        seen["moves"] = {"count": len(moves), "hash": digest(moves), "sample": sample}
        seen["labels"] = [game.label(move) for move in sample]
    seen["probes"] = [[text, answer(game, text)] for text in probes]
    if reload:   # the position read back from its FEN
        try:
            again = rules.new_game(game.info.slug, fen=seen["fen"])
            seen["reload"] = [again.fen(), digest(sorted(again.legal_moves())), outcome_of(again)]
        except ValueError as exc:
            seen["reload"] = ["refused", str(exc)]
    return seen


def info_of(slug: str) -> dict[str, Any]:
    info = rules.VARIANTS[slug]
    return {name: getattr(info, name) for name in ("slug", "name", "players", "summary", "files", "ranks",
                                                   "score_name", "score_better", "levels", "hints")}


def probes_for(game: rules.Game, rng: random.Random) -> list[str]:
    """A few texts to try: labels of legal turns as typed and lower-cased, near misses (a square
    changed, a part missing or added), a promotion without its piece, and junk. (The label of the
    turn played from each position is typed as well: see `record_game`.)"""
    moves = sorted(game.legal_moves())
    texts = [rng.choice(JUNK)]
    if not moves:
        return texts + ["e2e4"]
    files, ranks = game.info.files, game.info.ranks
    other = "abcdefghijklmnop"[rng.randrange(files)] + str(rng.randrange(ranks) + 1)
    move = rng.choice(moves)
    squares = SQUARE.findall(move)
    if squares:
        texts.append(move.replace(rng.choice(squares), other, 1))
    if " " in move:
        texts.append(move.rsplit(" ", 1)[0] if rng.random() < 0.5 else f"{move} {other}")
    texts.append(game.label(rng.choice(moves)).lower())
    promotions = [m for m in moves if re.fullmatch(r"[a-z]\d+[a-z]\d+[a-zA-Z]", m)]
    if promotions:
        texts.append(rng.choice(promotions)[:-1])
    return texts


def line_of(slug: str, seed: int, plies: int, closing: float, fen: str | None = None,
            opening: tuple[str, ...] = ()) -> list[str]:
    """A seeded random game of at most `plies` turns (from `fen`, after the turns `opening`); at
    each ply, with chance `closing`, a turn that ends the game when one of a few tried does (so that
    games reach their endings). A KingSwap! game with `closing` follows the solver's tour (a node
    budget: deterministic)."""
    game = rules.new_game(slug, seed=seed, fen=fen)
    if slug == "kingswap" and closing:
        return solve(game.position, SOLVER_NODES).line or []
    for move in opening:
        game.play(move)
    rng = random.Random(f"{slug}/{seed}/line" + (f"/{fen}" if fen else ""))
    while game.outcome is None and len(game.history) < plies:
        moves = game.legal_moves()
        chosen = rng.choice(moves)
        if rng.random() < closing:
            for move in rng.sample(moves, min(6, len(moves))):
                game.play(move)
                ends = game.outcome is not None
                game.undo()
                if ends:
                    chosen = move
                    break
        game.play(chosen)
    return game.history


def record_game(slug: str, seed: int, every: int, plies: int, closing: float, fen: str | None = None,
                opening: tuple[str, ...] = ()) -> dict[str, Any]:
    """One seeded game (see `line_of`); every `every`-th position and the last three are observed,
    the others keep their FEN. Each position also keeps the turn played from it: the canonical
    turn play() returned and, at an observed position, the text typed (the turn's label, or the
    canonical turn where the label names another turn or none)."""
    line = line_of(slug, seed, plies, closing, fen, opening)
    game = rules.new_game(slug, seed=seed, fen=fen)
    rng = random.Random(f"{slug}/{seed}/probes" + (f"/{fen}" if fen else ""))
    positions: list[dict[str, Any]] = []
    for ply, move in enumerate(line + [""]):
        if ply % every == 0 or ply >= len(line) - 2:
            seen = observe(game, probes_for(game, rng), reload=ply % (8 * every) == 0)
        else:
            seen = {"fen": game.fen()}
        positions.append(seen)
        if move and "turn" in seen:
            typed = game.label(move)
            if answer(game, typed)[:2] != ["move", move]:
                typed = move
            seen["typed"], seen["played"] = typed, game.play(typed)
        elif move:
            seen["played"] = game.play(move)
    return {"seed": seed, "positions": positions} | ({"fen": fen} if fen else {})


def record(slug: str) -> Path:
    games = [record_game(slug, *game) for game in GAMES]
    games += [record_game(slug, seed, 1, ENDING_PLIES, 0.35, fen, opening) for seed, fen, opening in ENDINGS.get(slug, ())]
    CORPUS.mkdir(parents=True, exist_ok=True)
    path = CORPUS / f"{slug}.jsonl.gz"
    lines = [json.dumps(info_of(slug), sort_keys=True)] + [json.dumps(g, sort_keys=True, separators=(",", ":"))
                                                          for g in games]
    with gzip.GzipFile(path, "wb", mtime=0) as out:   # mtime 0: the same play writes the same bytes
        out.write(("\n".join(lines) + "\n").encode())
    return path


def load(slug: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The recorded registry entry and games of `slug`."""
    with gzip.open(CORPUS / f"{slug}.jsonl.gz", "rt", encoding="utf-8") as lines:
        info, *games = [json.loads(line) for line in lines if line.strip()]
    return info, games


def main(slugs: list[str]) -> None:
    for slug in slugs or sorted(rules.VARIANTS):
        path = record(slug)
        info, games = load(slug)
        ends = [g["positions"][-1]["outcome"] for g in games]
        observed = sum("turn" in seen for g in games for seen in g["positions"])
        plies = sum(len(g["positions"]) for g in games)
        print(f"{slug:20} {observed:4} observed of {plies:4}, {path.stat().st_size:7} bytes, "
              f"endings: {[e[1] if e else None for e in ends]}")


if __name__ == "__main__":
    main(sys.argv[1:])

