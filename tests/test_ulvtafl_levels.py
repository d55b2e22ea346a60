"""benchmarks/ulvtafl_levels.py: the level sizes of the safe-moves game agree with a
breadth-first count by the reference rules alone, and focus only shrinks them."""

from __future__ import annotations

from helpers.benchmarks import load_benchmark

from fleece.rules.ulvtafl.game import SHEEP, UlvState, apply_move, generate, wolf_captures
from fleece.rules.ulvtafl.geometry import rank_of
from fleece.rules.ulvtafl.notation import parse_position

START = "W../.../......./......./SSSSSSS/SSS/.SS s"  # 12 sheep, one wolf far away


def _reference_levels(text: str, levels: int) -> list[tuple[int, int]]:
    """(positions, finished) per level, by the rules model: the sheep play the steps after
    which no wolf can capture; a forward step starts the next level."""
    root = parse_position(text)
    rules = root.rules
    current = {(root.sheep, root.wolves, root.to_move)}
    out = []
    for _ in range(levels):
        seen = set(current)
        todo = list(current)
        ahead: set[tuple[int, int, int]] = set()
        ended = 0
        while todo:
            sheep, wolves, side = todo.pop()
            if UlvState.create(rules, sheep, wolves, side).is_terminal():
                ended += 1
                continue
            for move in generate(rules, sheep, wolves, side):
                s2, w2 = apply_move(sheep, wolves, move)
                if side == SHEEP and any(wolf_captures(rules, s2, w2)):
                    continue
                child = (s2, w2, 1 - side)
                if side == SHEEP and rank_of(move.end) > rank_of(move.start):
                    ahead.add(child)
                elif child not in seen:
                    seen.add(child)
                    todo.append(child)
        out.append((len(seen), ended))
        current = ahead
    return out


def test_level_sizes_match_the_rules_model_and_focus_only_shrinks_them() -> None:
    levels = load_benchmark("ulvtafl_levels")
    safe = levels.count_levels(START, 0, 18, 3)
    assert safe["stopped"] == "level limit"
    got = [(r["positions"], r["finished"]) for r in safe["levels"]]
    assert got == _reference_levels(START, 3)
    focused = levels.count_levels(START, 2, 18, 3)
    assert all(f["positions"] <= s["positions"] for f, s in zip(focused["levels"],
                                                                 safe["levels"], strict=True))
    assert focused["positions"] < safe["positions"]


def test_a_level_too_large_for_the_table_stops_the_count() -> None:
    out = load_benchmark("ulvtafl_levels").count_levels(START, 0, 8)
    assert out["stopped"].startswith("level ") and "does not fit 2**8" in out["stopped"]
    assert out["positions"] == sum(r["positions"] for r in out["levels"])
