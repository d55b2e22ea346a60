"""The committed proof-tree report (benchmarks/ulvtafl_tree.py): its markdown is its JSON
rendered by the benchmark's own renderer, its 20-sheep figures are those of the saved tree
committed beside it (which the next run resumes), and every leaf proof that tree holds has
a certificate the reference rules accept."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from helpers.benchmarks import load_benchmark

from fleece.rules.ulvtafl.game import UlvtaflOptions, initial_state
from fleece.rules.ulvtafl.notation import parse_position
from fleece.solver.ulvtafl.certificate import check_certificate, sample_check
from fleece.solver.ulvtafl.tree import INF, ROOT, ProofTree

ROOT_DIR = Path(__file__).resolve().parent.parent
REPORT = ROOT_DIR / "reports" / "ulvtafl-tree"
SAVED = ROOT_DIR / "reports" / "ulvtafl-tree-search"


def _data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(REPORT.with_suffix(".json").read_text(encoding="utf-8"))
    return data


def _saved() -> ProofTree:
    return ProofTree.load(SAVED, memory="64M", state=initial_state(UlvtaflOptions(setup=20)))


def test_the_tree_markdown_is_its_json_rendered() -> None:
    text = load_benchmark("ulvtafl_tree").markdown(_data())
    assert REPORT.with_suffix(".md").read_text(encoding="utf-8") == text + "\n"


def test_both_methods_proved_each_one_wolf_start_with_checked_certificates() -> None:
    rows = _data()["compare"]
    assert [r["setup"] for r in rows] == [13, 15, 17]
    for r in rows:
        for method in ("search", "tree"):
            m = r[method]
            assert m["outcome"] == "proved" and m["checked"] > m["certificate"] > 0


def test_the_20_sheep_figures_are_the_saved_trees() -> None:
    t = _data()["twenty"]
    tree = _saved()
    assert tree.work == t["nodes"] and round(tree.seconds, 1) == t["seconds"]
    pn, dn = tree.root_numbers()
    assert ("inf" if pn >= INF else pn, "inf" if dn >= INF else dn) == \
        (t["proof_number"], t["disproof_number"])
    info = tree.progress_info()
    assert (info["tree_nodes"], info["expanded"], info["proved_leaves"]) == \
        (t["tree_nodes"], t["expanded"], t["proved_leaves"])
    assert [m["move"] for m in tree.root_moves()] == [m["move"] for m in t["root_moves"]]
    assert tree.outcome() == t["outcome"] or t["outcome"] in ("timeout", "interrupted")


def test_every_leaf_proof_of_the_saved_tree_has_a_certificate_that_checks() -> None:
    tree = _saved()
    proved = [n for n in tree.nodes[ROOT:] if n.cert >= 0]
    assert len(proved) == len(tree.certs) == _data()["twenty"]["proved_leaves"]
    for node in proved:
        state = parse_position(node.position)
        cert = tree.certs[node.cert]
        if len(cert) <= 20_000:
            assert check_certificate(state, "sheep", cert) >= len(cert)
        else:
            assert sample_check(state, "sheep", cert, 200) > 0
