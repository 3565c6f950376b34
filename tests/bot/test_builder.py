"""The turn builder's menus, without Discord: grouping, paging, labels, completeness."""
import pytest

import rules
from bot.builder import PAGE, menu, origin_of
from bot.discord.components.turn_builder import FORGOTTEN, decode_state, encode_state
from bot.service import UserError


def test_a_single_move_variant_offers_the_man_first_then_its_targets():
    game = rules.new_game("standard")
    first = menu(game)
    assert {o.value for o in first.options} == {f"#{sq}" for sq in ("b1", "g1", *(f + "2" for f in "abcdefgh"))}
    assert not first.complete
    targets = menu(game, (), "e2")
    assert sorted((o.value, o.label, o.description) for o in targets.options) == [
        ("e2e3", "e3", "e2e3"), ("e2e4", "e4", "e2e4")]
    assert menu(game, ("e2e4",)).complete and menu(game, ("e2e4",)).options == ()


def test_more_than_25_options_are_paged_and_the_last_page_leads_back():
    game = rules.new_game("standard", fen="k7/8/8/8/3Q4/8/8/7K w - - 0 1")   # the queen has 27 moves
    first = menu(game, (), "d4")
    assert first.pages == 2 and len(first.options) == PAGE and first.options[-1].value == ">1"
    second = menu(game, (), "d4", 1)
    assert second.options[-1].value == ">0" and "back to the first" in second.options[-1].label
    offered = [o.value for page in (first, second) for o in page.options if not o.value.startswith(">")]
    assert sorted(offered) == sorted(m for m in game.legal_moves() if m.startswith("d4"))


def test_a_balanced_swap_move_is_followed_by_only_its_legal_swaps_in_words():
    game = rules.new_game("balanced-swap")
    game.play("e2e4")
    after = menu(game, ("b8c6",))
    legal = {m.split(" ")[1] for m in game.legal_moves() if m.startswith("b8c6 ")}
    assert {o.value for o in after.options} == legal and not after.complete
    labels = {o.value: o.label for o in after.options}
    assert labels["f8/g7"] == "swap the bishop f8 with the pawn g7"
    assert labels["c6/d8"] == "swap the knight c6 with the queen d8"   # the knight stands on c6 by now
    done = menu(game, ("b8c6", "f8/g7"))
    assert done.complete and done.summary == "Nc6, then swap the bishop f8 with the pawn g7"


def test_a_tyrant_capture_of_the_queen_offers_its_placements():
    game = rules.new_game("tyrant")
    for move in ("e2e4", "e7e5", "d1h5", "d8h4"):
        game.play(move)
    placements = menu(game, ("h5h4",))
    assert not placements.complete and placements.prompt == "Pick where to place the man."
    assert {o.label for o in placements.options} >= {"place the Queen on a3", "place the Queen on g6"}


def test_parts_that_begin_no_legal_turn_are_refused():
    game = rules.new_game("standard")
    with pytest.raises(rules.IllegalMove, match="no longer legal"):
        menu(game, ("e2e5",))
    with pytest.raises(rules.IllegalMove, match="no longer legal"):
        menu(game, (), "e4")


def test_origins_group_parts_by_the_square_or_the_hand():
    assert [origin_of(p) for p in ("e2e4", "f8/g7", "a2|h2", "N@e4", "pass")] == ["e2", "f8", "a2", "N@", ""]


def test_a_state_too_long_for_a_custom_id_is_kept_under_a_short_token():
    parts = tuple(f"e{n % 8 + 1}e{n % 8 + 1}" for n in range(30))
    token = encode_state(parts, "", 0, room=60)
    assert token.startswith("!") and len(token) < 10
    assert decode_state(token) == (parts, "", 0)
    assert decode_state(encode_state(("b8c6", "f8/g7"), "c6", 2)) == (("b8c6", "f8/g7"), "c6", 2)
    with pytest.raises(UserError, match="reset"):
        decode_state("!ffffffff")
    assert "Clear" in FORGOTTEN


def reach(game, turn: str):
    """Walk the menus to `turn` choosing only what they offer; the last menu."""
    parts: tuple[str, ...] = ()
    for part in turn.split(" "):
        origin, page = "", 0
        for _ in range(200):
            offered = {o.value for o in menu(game, parts, origin, page).options}
            if part in offered:
                parts = (*parts, part)
                break
            if f"#{origin_of(part)}" in offered:
                origin = origin_of(part)
            else:
                page = int(next(v for v in offered if v.startswith(">"))[1:])
        else:
            raise AssertionError(f"{part} of {turn} never offered")
    return menu(game, parts)


@pytest.mark.parametrize("slug", sorted(rules.VARIANTS))
def test_every_legal_turn_is_reachable_from_the_menus_alone(slug):
    import random

    pick = random.Random(slug)
    game = rules.new_game(slug, seed=1)
    for _ in range(6):
        if game.outcome or not game.legal_moves():
            break
        game.play(pick.choice(game.legal_moves()))
    if game.outcome:
        return
    moves = game.legal_moves()
    for turn in pick.sample(moves, min(5, len(moves))):
        last = reach(game, turn)
        assert last.complete and last.text == turn
        assert all(len(o.label) <= 100 and len(o.value) <= 100 for o in last.options)


@pytest.mark.parametrize("slug", sorted(rules.VARIANTS))
def test_a_menu_from_the_view_in_hand_is_the_menu_the_game_gives(slug):
    game = rules.new_game(slug, seed=3)
    for _ in range(4):
        if game.outcome is not None:
            break
        view = game.view()
        assert menu(game, view=view) == menu(game)
        turn = sorted(game.legal_moves())[-1].split(" ")
        for depth in range(1, len(turn) + 1):
            assert menu(game, tuple(turn[:depth]), view=view) == menu(game, tuple(turn[:depth]))
        game.play(" ".join(turn))
