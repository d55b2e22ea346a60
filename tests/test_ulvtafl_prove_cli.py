"""`fleece ulvtafl prove` and `fleece ulvtafl certificate check`: a proof comes with a
certificate the reference rules re-check, a budget stops the search with nothing claimed
(exit status 1), a checkpoint resumes to the same proof, nothing is overwritten without
--force, and a forged certificate is refused in one line."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from helpers.clirun import invoke

from fleece.rules.ulvtafl.game import SHEEP
from fleece.rules.ulvtafl.notation import parse_position

# 9 sheep about to fill the paddock against one wolf: a sheep win in a few plies.
NEAR_WIN = "SSS/SS./..SSS../...S.../W....../.../... w"
# ply 37 of the horizon game (reports/ulvtafl-horizon.md): a focused proof of 250 positions
HORIZON_37 = "W.W/..S/.SSSS.S/SSSS.S./.S.SSSS/S.S/.SS s"


def test_prove_writes_a_certificate_that_checks(tmp_path: Path) -> None:
    out = tmp_path / "cert.json.gz"
    r = invoke(["ulvtafl", "prove", "--position", NEAR_WIN, "--certificate", str(out),
                "--json"])
    assert r.exit_code == 0, r.stderr
    report = json.loads(r.stdout)
    assert report["outcome"] == "proved" and report["side"] == "sheep"
    assert report["certificate_file"] == str(out) and report["proof_positions"] >= 1
    data = json.loads(gzip.decompress(out.read_bytes()))
    assert data["winner"] == "sheep" and data["positions"] == report["certificate_positions"]
    checked = invoke(["ulvtafl", "certificate", "check", str(out), "--json"])
    assert checked.exit_code == 0, checked.stderr
    assert json.loads(checked.stdout)["certificates"][0]["proof_positions"] == \
        report["proof_positions"]
    again = invoke(["ulvtafl", "prove", "--position", NEAR_WIN, "--certificate", str(out)])
    assert again.exit_code == 2 and "already exists" in again.stderr


def test_a_node_budget_claims_nothing_and_a_checkpoint_resumes(tmp_path: Path) -> None:
    ckpt = tmp_path / "ckpt"
    first = invoke(["ulvtafl", "prove", "--setup", "17", "--max-nodes", "1000",
                    "--checkpoint", str(ckpt), "--memory", "64M", "--json"])
    assert first.exit_code == 1, first.stderr
    stopped = json.loads(first.stdout)
    assert stopped["outcome"] == "max-nodes" and stopped["certificate_positions"] is None
    assert (ckpt / "search.npz").is_file()
    fresh = invoke(["ulvtafl", "prove", "--setup", "17", "--max-nodes", "1000",
                    "--checkpoint", str(ckpt)])
    assert fresh.exit_code == 2 and "holds a checkpoint (resume it" in fresh.stderr
    resumed = invoke(["ulvtafl", "prove", "--setup", "17", "--max-nodes", "1000",
                      "--checkpoint", str(ckpt), "--resume", "--json"])
    assert resumed.exit_code == 1, resumed.stderr
    assert json.loads(resumed.stdout)["nodes"] > stopped["nodes"]
    other = invoke(["ulvtafl", "prove", "--setup", "15", "--checkpoint", str(ckpt),
                    "--resume"])
    assert other.exit_code == 2 and other.stderr.count("\n") == 1
    assert saved_table_bits(ckpt) == 20  # 2**20 entries fit 64M
    grown = invoke(["ulvtafl", "prove", "--setup", "17", "--max-nodes", "1000",
                    "--checkpoint", str(ckpt), "--resume", "--memory", "256M", "--json"])
    assert grown.exit_code == 1, grown.stderr
    assert saved_table_bits(ckpt) == 22
    assert json.loads(grown.stdout)["nodes"] > json.loads(resumed.stdout)["nodes"]


def saved_table_bits(folder: Path) -> int:
    """The table size (log2) a checkpoint folder's search was saved with."""
    with np.load(folder / "search.npz") as data:
        return int(json.loads(bytes(data["meta"]).decode())["table_bits"])


def test_a_forged_certificate_is_refused(tmp_path: Path) -> None:
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps({"format": "fleece-ulvtafl-certificate", "root": NEAR_WIN,
                                  "winner": "sheep", "positions": 0, "certificate": {}}))
    r = invoke(["ulvtafl", "certificate", "check", str(forged)])
    assert r.exit_code == 2 and r.stderr.startswith("fleece: error: ")
    assert r.stderr.count("\n") == 1


def test_focus_proves_a_horizon_position_and_stays_a_sheep_option() -> None:
    """--focus 1 proves a position 29 plies before the end of the horizon game
    (reports/ulvtafl-horizon.md) within 400,000 nodes, with a checked certificate; a radius
    beyond the board, or focus on a search for the wolves, is a one-line error."""
    horizon_37 = "W.W/..S/.SSSS.S/SSSS.S./.S.SSSS/S.S/.SS s"
    r = invoke(["ulvtafl", "prove", "--position", horizon_37, "--safe-only", "--focus", "1",
                "--max-nodes", "400000", "--memory", "64M", "--json"])
    assert r.exit_code == 0, r.stderr
    report = json.loads(r.stdout)
    assert report["outcome"] == "proved" and report["proof_positions"] > 10
    for args in (["--focus", "7"], ["--focus", "1", "--side", "wolves"]):
        bad = invoke(["ulvtafl", "prove", "--setup", "17", *args])
        assert bad.exit_code == 2, (args, bad.output)
        assert bad.stderr.startswith("fleece: error: ") and bad.stderr.count("\n") == 1


def test_epsilon_reaches_one_search_and_a_tree(tmp_path: Path) -> None:
    """--epsilon is the search's: 1/8 proves ply 37 of the horizon game in other nodes than
    the default 1/4; a tree keeps it for its leaves; a checkpoint resumes only with its
    own; a bad epsilon is a one-line error."""
    args = ["ulvtafl", "prove", "--position", HORIZON_37, "--safe-only", "--focus", "2",
            "--memory", "128M", "--json"]
    nodes = {}
    for eps in ("0.25", "0.125"):
        r = invoke([*args, "--epsilon", eps])
        assert r.exit_code == 0, r.stderr
        nodes[eps] = json.loads(r.stdout)["nodes"]
    assert nodes["0.25"] != nodes["0.125"]
    tree = invoke(["ulvtafl", "prove", "--position", HORIZON_37, "--tree", "--safe-leaves",
                   "--memory", "128M", "--epsilon", "0.125", "--checkpoint",
                   str(tmp_path / "tree"), "--json"])
    assert tree.exit_code == 0, tree.stderr
    saved = json.loads(gzip.decompress((tmp_path / "tree" / "tree.json.gz").read_bytes()))
    assert saved["epsilon"] == 0.125
    ckpt = tmp_path / "ck"
    invoke(["ulvtafl", "prove", "--setup", "17", "--max-nodes", "1000", "--memory", "64M",
            "--epsilon", "0.125", "--checkpoint", str(ckpt)])
    wrong = invoke(["ulvtafl", "prove", "--setup", "17", "--checkpoint", str(ckpt),
                    "--resume"])
    assert wrong.exit_code == 2 and "epsilon 0.125 there" in wrong.stderr
    right = invoke(["ulvtafl", "prove", "--setup", "17", "--max-nodes", "1000", "--checkpoint",
                    str(ckpt), "--resume", "--epsilon", "0.125"])
    assert right.exit_code == 1, right.stderr
    for bad in ("0.3", "5", "-1", "x"):
        r = invoke(["ulvtafl", "prove", "--setup", "17", "--epsilon", bad])
        assert r.exit_code == 2 and r.stderr.count("\n") == 1, (bad, r.output)
        assert r.stderr.startswith("fleece: error: ")


def test_a_split_search_gives_each_unit_its_epsilon(monkeypatch: pytest.MonkeyPatch) -> None:
    import fleece.solver.ulvtafl.parallel as parallel

    seen: list[float] = []

    class Spy(parallel.Prover):
        def __init__(self, *args: Any, **kw: Any) -> None:
            super().__init__(*args, **kw)
            seen.append(self.epsilon)

    monkeypatch.setattr(parallel, "Prover", Spy)
    parallel.prove_split(parse_position(HORIZON_37), SHEEP, workers=2, nodes=50_000,
                         memory="1G", safe_only=True, focus=2, epsilon=0.125)
    assert len(seen) > 1 and set(seen) == {0.125}


def test_bad_budgets_are_one_line() -> None:
    for args in (["--memory", "0"], ["--memory", "lots"], ["--resume"], ["--max-nodes", "0"]):
        r = invoke(["ulvtafl", "prove", "--setup", "17", *args])
        assert r.exit_code == 2, (args, r.output)
        assert r.stderr.startswith("fleece: error: ") and r.stderr.count("\n") == 1


def test_an_open_search_on_a_full_table_says_to_give_it_memory() -> None:
    """A search stopped with its table full names memory as the remedy; one stopped with
    room to spare does not."""
    full = invoke(["ulvtafl", "prove", "--setup", "17", "--memory", "12M",
                   "--max-nodes", "1000000"])
    assert full.exit_code == 1, full.stderr
    assert "table 100% full" in full.stdout
    assert "give it more --memory" in full.stdout
    roomy = invoke(["ulvtafl", "prove", "--setup", "17", "--memory", "64M",
                    "--max-nodes", "1000"])
    assert roomy.exit_code == 1, roomy.stderr
    assert "open: max-nodes" in roomy.stdout and "--memory" not in roomy.stdout


def test_a_proof_its_store_could_not_hold_is_not_claimed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With a proof store of 16 entries, the focused search of a horizon position (a proof
    of 250 positions) proves its root but records too few proofs for a certificate: the
    report says proved-without-certificate (exit 1), counts the proofs with no room, and
    the text names the store; with the normal store it is proved with 0 unrecorded."""
    import fleece.solver.ulvtafl.prover as prover

    args = ["ulvtafl", "prove", "--position", HORIZON_37, "--safe-only", "--focus", "2",
            "--profile", "steps", "--memory", "64M"]
    full = invoke([*args, "--json"])
    assert full.exit_code == 0, full.stderr
    assert json.loads(full.stdout)["proofs_unrecorded"] == 0
    monkeypatch.setattr(prover, "store_entries", lambda bits, memory=None: 16)
    small = invoke([*args, "--json"])
    assert small.exit_code == 1, small.stderr
    report = json.loads(small.stdout)
    assert report["outcome"] == "proved-without-certificate"
    assert report["proofs_unrecorded"] > 0 and report["certificate_positions"] is None
    text = invoke(args)
    assert text.exit_code == 1
    assert f"proof store: {report['proofs_unrecorded']:,} proofs found no room" in text.stdout
    assert "gave no certificate" in text.stdout


def test_a_seed_certificate_is_rechecked_and_its_proof_taken_as_known(
        tmp_path: Path) -> None:
    """--seed FILE: the proof of a certificate file counts as known, so proving its own
    root again takes a handful of nodes (alone, or as a tree's leaf search; the saved tree
    keeps its seeds) and the report counts the positions seeded; a
    seed with a split search (several workers), or a seed file that is not a certificate, is a
    one-line error (exit status 2)."""
    cert = tmp_path / "h37.json.gz"
    args = ["ulvtafl", "prove", "--position", HORIZON_37, "--safe-only", "--focus", "2",
            "--profile", "steps", "--memory", "64M"]
    first = invoke([*args, "--certificate", str(cert), "--json"])
    assert first.exit_code == 0, first.stderr
    proof = json.loads(first.stdout)["proof_positions"]
    again = invoke([*args, "--seed", str(cert), "--json"])
    assert again.exit_code == 0, again.stderr
    report = json.loads(again.stdout)
    assert report["outcome"] == "proved" and report["seeded"] == proof
    assert report["nodes"] < 100 and report["proof_positions"] > 0
    text = invoke([*args, "--seed", str(cert)])
    assert f"seeds: {proof:,} proved positions added" in text.stdout
    folder = tmp_path / "tree"
    tree = invoke(["ulvtafl", "prove", "--position", HORIZON_37, "--tree", "--safe-leaves",
                   "--focus", "2", "--profile", "steps", "--memory", "128M", "--seed",
                   str(cert), "--checkpoint", str(folder), "--json"])
    assert tree.exit_code == 0, tree.stderr
    grown = json.loads(tree.stdout)
    assert grown["outcome"] == "proved" and grown["nodes"] < 100
    saved = json.loads(gzip.decompress((folder / "tree.json.gz").read_bytes()))
    assert saved["seeds"] == [str(cert)]
    refused = invoke(["ulvtafl", "prove", "--position", HORIZON_37, "--seed", str(cert),
                      "--workers", "2"])
    assert refused.exit_code == 2 and "not a split search" in refused.stderr
    assert refused.stderr.count("\n") == 1
    junk = tmp_path / "junk.json"
    junk.write_text("{}")
    bad = invoke([*args, "--seed", str(junk)])
    assert bad.exit_code == 2 and bad.stderr.startswith("fleece: error: ")
    assert bad.stderr.count("\n") == 1


def test_a_failed_restricted_search_names_the_options_that_restricted_it() -> None:
    """After the wolves' c7-d7 at ply 32 of the horizon game the sheep on safe forward moves
    run out of moves: the search fails (exit 1), and its one-line verdict names exactly the
    restrictions given, not a fixed list."""
    c7d7 = ".W./.W./.SSSS.S/SSSSSS./.S.SSSS/S.S/.SS s"
    for extra, named in (([], "(--safe-only, --forward-only)"),
                         (["--focus", "2"], "(--safe-only, --forward-only, --focus 2)")):
        r = invoke(["ulvtafl", "prove", "--position", c7d7, "--safe-only", "--forward-only",
                    *extra, "--max-nodes", "2000000", "--memory", "64M"])
        assert r.exit_code == 1, r.output
        verdict = r.stdout.splitlines()[1]
        assert verdict == (f"the sheep cannot force a win with only the moves allowed {named}; "
                           "nothing is claimed about the game"), verdict


def test_a_failed_tree_names_its_safe_front_and_not_its_leaves_focus() -> None:
    """A tree fails on what its front left out, never on a leaf's focus (its leaves fall
    back to the unrestricted search): the verdict names --safe-front alone, and without it
    the same position is disproved outright (the wolves win this one)."""
    lost = "SS./W../SSSSSS./..S..../......./.../... s"
    args = ["ulvtafl", "prove", "--position", lost, "--tree", "--leaf-nodes", "1000",
            "--leaf-max", "4000", "--memory", "64M", "--max-nodes", "50000"]
    for extra in (["--safe-front"], ["--safe-front", "--focus", "2"]):
        r = invoke([*args, *extra])
        assert r.exit_code == 1, r.output
        assert r.stdout.splitlines()[1] == (
            "the sheep cannot force a win with only the moves allowed (--safe-front); "
            "nothing is claimed about the game")
    plain = invoke(args)
    assert plain.exit_code == 0, plain.output
    assert plain.stdout.splitlines()[1] == "the sheep cannot force a win (U7: a draw or a loss)"


def test_a_tree_failed_on_its_repetition_edges_says_so() -> None:
    """A tree whose disproof may lean on a move back to one of its positions says that is
    why, with or without a safe front; a single search names its own options."""
    from fleece.commands.ulvtafl import _failure

    tail = "; nothing is claimed about the game"
    edges = {"safe_front": False, "repetition_edges": 3}
    assert _failure("sheep", False, False, 0, edges) == (
        "the sheep cannot force a win in a tree where a move back to one of its positions "
        "counts as no win" + tail)
    assert _failure("sheep", False, False, 2, {**edges, "safe_front": True}) == (
        "the sheep cannot force a win with only the moves allowed (--safe-front), in a tree "
        "where a move back to one of its positions counts as no win" + tail)
    assert _failure("sheep", True, False, 2, None) == (
        "the sheep cannot force a win with only the moves allowed (--safe-only, --focus 2)"
        + tail)
