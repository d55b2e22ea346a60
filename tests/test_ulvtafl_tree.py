"""The proof-number tree over bounded df-pn leaves (solver/ulvtafl/tree.py): its proofs come
with certificates the reference rules accept, its values agree with retrograde analysis (no
shared code), a saved tree resumes to the same proof, and bad options and files are one-line
errors."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from helpers.clirun import invoke
from helpers.ulvtafl_positions import small_solved

from fleece.rules.errors import FleeceError
from fleece.rules.ulvtafl.game import SHEEP, WOLVES, UlvState, UlvtaflOptions, initial_state
from fleece.rules.ulvtafl.notation import parse_move, parse_position, position_text
from fleece.solver.ulvtafl.certificate import check_certificate
from fleece.solver.ulvtafl.parallel import mirror_position
from fleece.solver.ulvtafl.prover import CheckpointError, table_bits_for
from fleece.solver.ulvtafl.tree import INF, ROOT, ProofTree, Worker, worker_bits

START_17 = initial_state(UlvtaflOptions(setup=17))


def small_tree(state: object = START_17, attacker: int = SHEEP, **kw: object) -> ProofTree:
    """A tree whose leaves are searched for 20,000 to 80,000 nodes: far too few for the
    17-sheep start (1.3M nodes in one search), so the front end must split it."""
    options: dict[str, object] = {"workers": 2, "leaf_nodes": 20_000, "leaf_max": 80_000,
                                  "memory": "128M", **kw}
    return ProofTree(state, attacker, **options)  # type: ignore[arg-type]


def test_the_tree_proves_the_17_sheep_start_with_a_certificate_the_rules_check() -> None:
    tree = small_tree()
    outcome = tree.run(seconds=600)
    info = tree.progress_info()
    assert outcome == "proved", info
    assert info["expanded"] > 1, info  # the root alone cannot be proved in 80,000 nodes
    assert info["proved_leaves"] >= 1, info
    assert (tree.nodes[ROOT].pn, tree.nodes[ROOT].dn) == (0, INF)
    # the start is symmetric: some positions of the graph stand for their mirror images
    assert any(any(n.flips or ()) for n in tree.nodes)
    cert = tree.certificate()
    assert cert is not None
    walked = check_certificate(START_17, "sheep", cert)
    assert walked > len(cert) > 100, (walked, len(cert), info)
    assert [m["outcome"] for m in tree.root_moves()] == ["proved"] * 3


@pytest.mark.parametrize("seed", range(12))
def test_tree_values_agree_with_retrograde_analysis(seed: int) -> None:
    """Wherever the tree settles a small position for either attacker, retrograde analysis
    gives that value; a proof's certificate checks; a disproof is claimed only when no
    repetition edge could carry it."""
    solved = small_solved(seed, 100_000)
    if solved is None:
        return
    root, value = solved
    for attacker in (SHEEP, WOLVES):
        name = ("wolves", "sheep")[attacker]
        tree = ProofTree(root, attacker, workers=2, leaf_nodes=500, leaf_max=2000,
                         memory="96M", safe_leaves=attacker == SHEEP)
        outcome = tree.run(nodes=300_000)
        if outcome == "proved":
            assert value == name
            cert = tree.certificate()
            assert cert is not None and check_certificate(root, name, cert) > 0
        elif outcome == "disproved":
            assert value != name and tree.repetitions == 0
        elif outcome == "failed":
            assert tree.repetitions > 0
    # the sheep kept to safe moves in the tree: a proof holds, a disproof is never claimed
    tree = ProofTree(root, SHEEP, workers=2, leaf_nodes=500, leaf_max=2000, memory="96M",
                     safe_front=True)
    outcome = tree.run(nodes=300_000)
    assert outcome != "disproved"
    if outcome == "proved":
        assert value == "sheep"
        cert = tree.certificate()
        assert cert is not None and check_certificate(root, "sheep", cert) > 0


def _captures_after(state: UlvState, move: str) -> bool:
    """True when a wolf can capture after this move (the reference rules' legal moves)."""
    after = state.play(parse_move(move))
    return not after.is_terminal() and any(m.capture for m in after.legal_moves())


def test_a_safe_front_gives_the_sheep_only_safe_moves_where_they_have_one(
        tmp_path: Path) -> None:
    """With safe_front, every expanded sheep position of the tree lists exactly the moves
    after which no wolf can capture or the game is over (all moves where none is); the
    wolves keep every move; a saved tree keeps the setting."""
    tree = small_tree(safe_front=True, leaf_nodes=2000, leaf_max=4000)
    tree.run(nodes=400_000)
    expanded = [n for n in tree.nodes[1:] if n.kids is not None]
    assert any(n.attacks for n in expanded) and any(not n.attacks for n in expanded)
    pruned = 0
    for node in expanded:
        state = parse_position(node.position)
        legal = {m.text() for m in state.legal_moves()}
        safe = {m for m in legal if not _captures_after(state, m)}
        assert node.moves is not None
        want = (safe or legal) if node.attacks else legal
        # one sheep step reaches one board: the sheep keep exactly the wanted moves; a
        # wolf's capture chains that end on one board are one kid
        got = set(node.moves)
        assert got == want if node.attacks else got <= want, (node.position, got ^ want)
        assert len(set(node.moves)) == len(node.moves)
        pruned += len(legal) - len(want)
    assert pruned > 0  # the start's sheep have unsafe moves: some were left out
    tree.save(tmp_path)
    assert ProofTree.load(tmp_path, memory="128M").safe_front
    # turned on when a plain tree resumes, and kept from then on
    plain = small_tree()
    plain.run(nodes=100_000)
    assert not plain.safe_front and plain.progress_info()["safe_front"] is False
    plain.save(tmp_path / "plain")
    on = ProofTree.load(tmp_path / "plain", memory="128M", safe_front=True)
    assert on.safe_front and on.progress_info()["safe_front"] is True
    on.save(tmp_path / "plain", overwrite=True)
    assert ProofTree.load(tmp_path / "plain", memory="128M").safe_front


def test_a_safe_front_tree_proves_a_sheep_win_with_a_certificate_that_checks() -> None:
    """A sheep win in 37 plies (retrograde analysis) proved through a tree that left out
    unsafe sheep moves; the certificate is checked by the reference rules."""
    root = parse_position(".S./.SS/.S.SSSW/.S..SS./......./.../... s")
    # one worker: the same tree on every run (two make the leaves' order, and with it the
    # certificate's size, depend on the machine's load)
    tree = ProofTree(root, SHEEP, workers=1, leaf_nodes=2000, leaf_max=8000, memory="96M",
                     safe_front=True)
    assert tree.run(seconds=600) == "proved", tree.progress_info()
    assert tree.progress_info()["expanded"] > 1
    cert = tree.certificate(check=False)
    assert cert is not None and check_certificate(root, "sheep", cert) > len(cert) > 10


def test_focused_leaves_prove_what_the_plain_leaves_leave_open(tmp_path: Path) -> None:
    """A position 29 plies before the end of the horizon game: with leaves of 20,000 to
    80,000 nodes the safe tree is still open after 1,000,000 nodes, and with each leaf
    searched focused first (focus 1) it is proved, with a certificate the reference rules
    check; a saved tree keeps its focus, and a resumed one may change it."""
    root = parse_position("W.W/..S/.SSSS.S/SSSS.S./.S.SSSS/S.S/.SS s")
    kw = {"workers": 1, "leaf_nodes": 20_000, "leaf_max": 80_000, "memory": "128M",
          "safe_leaves": True, "safe_front": True}
    plain = ProofTree(root, SHEEP, **kw)  # type: ignore[arg-type]
    assert plain.run(nodes=1_000_000) == "max-nodes"
    tree = ProofTree(root, SHEEP, focus_leaves=1, **kw)  # type: ignore[arg-type]
    assert tree.run(nodes=1_000_000) == "proved", tree.progress_info()
    cert = tree.certificate(check=False)
    assert cert is not None and check_certificate(root, "sheep", cert) > len(cert) > 10
    assert tree.progress_info()["focus_leaves"] == 1
    tree.save(tmp_path)
    assert ProofTree.load(tmp_path, memory="128M").focus_leaves == 1
    assert ProofTree.load(tmp_path, memory="128M", focus_leaves=0).focus_leaves == 0
    with pytest.raises(FleeceError, match="only the sheep"):
        ProofTree(root, WOLVES, focus_leaves=1)


def test_the_tree_searches_its_leaves_on_a_local_ray_instance() -> None:
    import ray  # the test extra installs the scale extra: this test always runs

    tree = small_tree()
    assert tree.run(seconds=600, ray_address="local") == "proved"
    assert tree.executor == "ray" and not ray.is_initialized()
    cert = tree.certificate()
    assert cert is not None and check_certificate(START_17, "sheep", cert) > 0


def test_a_saved_tree_resumes_to_the_same_proof(tmp_path: Path) -> None:
    folder = tmp_path / "tree"
    first = small_tree()
    assert first.run(nodes=600_000, folder=folder) == "max-nodes"
    with pytest.raises(CheckpointError, match="already there"):
        first.save(folder)
    again = ProofTree.load(folder, workers=2, memory="128M", state=START_17)
    assert again.work == first.work and len(again.nodes) == len(first.nodes)
    assert again.root_numbers() == first.root_numbers()
    assert again.run(seconds=600) == "proved"
    cert = again.certificate()
    assert cert is not None and check_certificate(START_17, "sheep", cert) > 0


def test_a_leaf_being_searched_is_saved_with_its_own_numbers(tmp_path: Path) -> None:
    tree = small_tree()
    tree.run(nodes=200_000)
    leaf = tree._select()[-1]
    before = (tree.nodes[leaf].pn, tree.nodes[leaf].dn)
    root_before = tree.root_numbers()
    tree._claim(leaf)
    assert tree.nodes[leaf].pn == INF - 1 and tree.root_numbers() == root_before
    tree.save(tmp_path)
    loaded = ProofTree.load(tmp_path, memory="128M")
    assert (loaded.nodes[leaf].pn, loaded.nodes[leaf].dn) == before
    assert loaded.root_numbers() == root_before


def test_saved_trees_of_other_roots_and_corrupt_files_are_refused(tmp_path: Path) -> None:
    with pytest.raises(CheckpointError, match="no saved tree"):
        ProofTree.load(tmp_path)
    tree = small_tree()
    tree.save(tmp_path)
    with pytest.raises(CheckpointError, match="not of this position"):
        ProofTree.load(tmp_path, state=initial_state(UlvtaflOptions(setup=13)))
    (tmp_path / "tree.json.gz").write_bytes(gzip.compress(b'{"format": "x"}'))
    with pytest.raises(CheckpointError, match="not a saved proof tree"):
        ProofTree.load(tmp_path)
    (tmp_path / "tree.json.gz").write_bytes(b"\x1f\x8b garbage")
    with pytest.raises(CheckpointError, match="corrupt"):
        ProofTree.load(tmp_path)


def test_bad_options_are_one_line_errors() -> None:
    with pytest.raises(FleeceError, match="workers"):
        small_tree(workers=0)
    with pytest.raises(FleeceError, match="smaller than"):
        small_tree(leaf_nodes=1000, leaf_max=999)
    with pytest.raises(FleeceError, match="only the sheep"):
        small_tree(attacker=WOLVES, safe_leaves=True)
    with pytest.raises(FleeceError, match="safe front"):
        small_tree(attacker=WOLVES, safe_front=True)
    with pytest.raises(FleeceError, match="must be more than zero"):
        small_tree(leaf_nodes=0)
    ended = parse_position("SSS/SSS/..SSS../......./W....../.../... w")
    with pytest.raises(FleeceError, match="game is over"):
        small_tree(ended)


def test_the_cli_proves_with_a_tree_and_refuses_to_overwrite_it(tmp_path: Path) -> None:
    folder, cert = tmp_path / "tree", tmp_path / "cert.json.gz"
    args = ["ulvtafl", "prove", "--setup", "17", "--tree", "--workers", "2",
            "--leaf-nodes", "20000", "--leaf-max", "80000", "--memory", "128M",
            "--checkpoint", str(folder)]
    r = invoke([*args, "--certificate", str(cert), "--json"])
    assert r.exit_code == 0, r.stderr
    report = json.loads(r.stdout)
    assert report["outcome"] == "proved" and report["executor"] == "proof tree, 2 threads"
    assert report["tree"]["expanded"] > 1 and report["proof_positions"] > 100
    assert (folder / "tree.json.gz").is_file()
    data = json.loads(gzip.decompress(cert.read_bytes()))
    assert data["positions"] == report["certificate_positions"]
    again = invoke(args)
    assert again.exit_code == 2 and "holds a saved tree" in again.stderr
    resumed = invoke([*args, "--resume"])
    assert resumed.exit_code == 0, resumed.stderr
    assert "PROVED" in resumed.stdout and f"work: {report['nodes']:,} nodes" in resumed.stdout
    assert f"tree: {report['tree']['tree_nodes']:,} positions" in resumed.stdout


@pytest.mark.parametrize("extra, words", [
    (["--safe-leaves"], "safe leaves belong to the tree search"),
    (["--safe-front"], "a safe front belongs to the tree search"),
    (["--tree", "--safe-front", "--side", "wolves"], "only the sheep"),
    (["--tree", "--safe-only"], "leaves only"),
])
def test_tree_options_out_of_place_are_one_line(extra: list[str], words: str) -> None:
    r = invoke(["ulvtafl", "prove", "--setup", "17", *extra])
    assert r.exit_code == 2 and words in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_sigterm_stops_a_tree_run_cleanly_with_its_folder_saved(tmp_path: Path) -> None:
    """A run in the background is stopped with `kill`: the leaf searches end, the tree is
    saved, nothing is claimed (exit status 1)."""
    import signal
    import subprocess
    import sys

    folder = tmp_path / "tree"
    proc = subprocess.Popen(
        [sys.executable, "-m", "fleece", "ulvtafl", "prove", "--setup", "20", "--tree",
         "--workers", "2", "--leaf-nodes", "20000", "--leaf-max", "40000", "--memory",
         "128M", "--checkpoint", str(folder), "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    first = proc.stderr.readline()  # the first progress line: the tree is growing
    assert "nodes" in first, first
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 1, err
    report = json.loads(out)
    assert report["outcome"] == "interrupted" and report["nodes"] > 0
    assert ProofTree.load(folder).work == report["nodes"]


def test_a_leaf_that_searching_cannot_move_on_is_expanded(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A leaf proved without a certificate (the proof store lost part of it), or open after
    a search that spent no node, is expanded next instead of being searched again forever."""
    from fleece.solver.ulvtafl import tree as module

    searched: list[str] = []

    def stuck(self: object, position: str, nodes: int) -> dict[str, object]:
        searched.append(position)
        if len(searched) % 2:
            return {"outcome": "proved", "pn": 0, "dn": INF, "nodes": 0, "certificate": None}
        return {"outcome": "unverified", "pn": 5, "dn": 0, "nodes": 0}

    monkeypatch.setattr(module.Worker, "search", stuck)
    tree = small_tree(workers=1)
    assert tree.run(seconds=3) == "timeout"
    assert len(searched) == len(set(searched))  # no leaf searched twice
    assert tree.progress_info()["expanded"] > 5


def test_a_kid_two_moves_reach_counts_once_in_its_parents_sum() -> None:
    """From d7 the wolf's moves to c7 and e7 reach one position (mirror images): the start's
    proof number is that kid's once plus d7-d6's, not twice plus d7-d6's."""
    start = initial_state(UlvtaflOptions(setup=13))
    tree = ProofTree(start, SHEEP, workers=1, memory="64M")
    tree._expand(ROOT)
    root = tree.nodes[ROOT]
    assert root.kids is not None and len(root.kids) == 3 and len(set(root.kids)) == 2
    assert root.flips is not None and sorted(root.flips) == [False, False, True]
    side, ahead = sorted(set(root.kids), key=root.kids.count, reverse=True)
    tree.nodes[side].pn, tree.nodes[ahead].pn = 7, 5
    tree._update(ROOT)
    assert root.pn == 12 and root.dn == 1


def test_a_tree_retargeted_back_along_a_game_keeps_its_proofs() -> None:
    """Proved after two plies, then retargeted at the position one ply earlier and at the
    start: the old root stays in the graph, proved, under the new one; each new root is
    proved with a certificate the rules check from it; an ended game is refused."""
    game = [START_17]
    for move in ("d7-d6", "d3-d4"):
        game.append(game[-1].play(parse_move(move)))
    tree = small_tree(game[2])
    assert tree.run(seconds=600) == "proved"
    for ply in (1, 0):
        old = tree.nodes[ROOT].position
        tree.retarget(game[ply])
        assert tree.nodes[ROOT].position != old
        assert tree.nodes[tree.index[old]].pn == 0  # the old root's proof is kept
        assert tree.outcome() == "open"
        assert tree.run(seconds=600) == "proved"
        cert = tree.certificate(check=False)
        assert cert is not None and check_certificate(game[ply], "sheep", cert) > 0
        assert tree.index[tree.nodes[ROOT].position] == ROOT
    assert all(tree.nodes[i].position == p for p, i in tree.index.items())
    for i, node in enumerate(tree.nodes[1:], 1):  # kids and parents name each other
        assert all(i in tree.nodes[k].parents for k in node.kids or () if k != 0)
        assert all(i in (tree.nodes[p].kids or ()) for p in node.parents)
    ended = parse_position("SWS/WSS/.SSS.../SSSS.S./.S..SSS/SSS/..S w")
    with pytest.raises(FleeceError, match="game is over"):
        tree.retarget(ended)


def test_retargeting_at_a_position_inside_the_graph_makes_moves_into_it_repetitions(
        tmp_path: Path) -> None:
    """The new root may already be a node (a kid of the old root here): every path now
    starts at it, so the moves into it become repetition edges and it has no parents; its
    own moves are no repetitions, and it is proved (all the old root's kids are sheep wins)
    with a certificate the rules check."""
    game = [START_17]
    for move in ("d7-d6", "d3-d4"):
        game.append(game[-1].play(parse_move(move)))
    tree = small_tree(game[2], workers=1)  # one order of leaves: the same graph each run
    tree.run(nodes=200_000)
    old, kids = tree.nodes[ROOT].position, tree.nodes[ROOT].kids
    assert kids is not None
    [kid, *_] = [k for k in kids if tree.nodes[k].pn != 0]  # one not proved yet
    target = parse_position(tree.nodes[kid].position)
    repetitions = tree.repetitions
    # every move into the kid, read off the graph (the indices of the kid and the old
    # root trade places when the kid becomes the root)
    swap = {ROOT: kid, kid: ROOT}
    into = sorted((swap.get(i, i), j) for i, n in enumerate(tree.nodes)
                  for j, k in enumerate(n.kids or ()) if k == kid)
    tree.retarget(target)
    assert tree.nodes[ROOT].parents == []
    assert all(ROOT not in (n.kids or ()) for n in tree.nodes)
    assert sorted((p, j) for p, j, _ in tree.entered) == into
    start = tree.index[old]
    slots = [j for p, j, _ in tree.entered if p == start]  # the old root's moves in
    assert slots and all((tree.nodes[start].kids or [])[j] == 0 for j in slots)
    assert tree.repetitions == repetitions + len(into) == repetitions + 1
    assert tree.run(seconds=600) == "proved"
    cert = tree.certificate(check=False)
    assert cert is not None and check_certificate(target, "sheep", cert) > 0
    # back at the old root, its move into the kid is a move again, the kid's proof counts
    # (the run may have closed cycles of its own: those stay repetitions)
    repetitions = tree.repetitions
    tree.retarget(game[2])
    assert tree.repetitions == repetitions - 1 and tree.entered == []
    assert all((tree.nodes[ROOT].kids or [])[j] == kid for j in slots)
    assert ROOT in tree.nodes[kid].parents
    assert tree.run(seconds=600) == "proved"
    cert = tree.certificate(check=False)
    assert cert is not None and check_certificate(game[2], "sheep", cert) > 0
    # a saved tree keeps the edges retarget turned into repetitions, to give them back
    tree.retarget(target)
    tree.save(tmp_path)
    again = ProofTree.load(tmp_path, workers=2, memory="128M")
    assert again.entered == tree.entered != []
    repetitions = again.repetitions
    again.retarget(game[2])
    assert again.repetitions == repetitions - 1 and again.outcome() == "proved"
    # a move into the old root stays a repetition once that root lies above the move's
    # start (made so here by hand: the kid, root again, named as a parent of the old root)
    again.retarget(target)
    for p in {p for p, _, _ in again.entered}:
        again.nodes[p].parents.append(ROOT)
    repetitions = again.repetitions
    again.retarget(game[2])
    assert all((again.nodes[ROOT].kids or [])[j] == 0 for j in slots)
    assert again.repetitions == repetitions and again.entered == []


def test_root_moves_and_the_line_are_moves_of_the_root_as_given() -> None:
    """A position and its mirror image share one node, held in one orientation: the root's
    moves and the most-proving line are given for the root as the caller wrote it (each
    move legal there, reaching the position whose numbers it shows), whichever it is."""
    state = START_17.play(parse_move("d7-c7")).play(parse_move("b4-b5"))
    image = parse_position(mirror_position(position_text(state)))
    flips = set()
    for root in (state, image):
        tree = small_tree(root, leaf_nodes=1000, leaf_max=2000, workers=1)  # one order
        tree.run(nodes=300_000)
        flips.add(tree.root_flip)
        moves = tree.root_moves()
        assert {m["move"] for m in moves} == {m.text() for m in root.legal_moves()}
        for m in moves:
            kid = root.play(parse_move(m["move"]))
            text = position_text(kid).split(" |")[0]
            i = tree.index.get(text, tree.index.get(mirror_position(text)))
            assert i is not None and tree.nodes[i].pn == m["proof_number"]
        line = tree.principal_line()
        assert len(line) >= 4
        walk = root
        for step in line:
            walk = walk.play(parse_move(step["move"]))  # legal, or UlvIllegalMove
    assert flips == {False, True}


def test_a_focused_leaf_out_of_budget_ends_its_turn_without_the_wider_searches() -> None:
    """A focused leaf search that runs out of budget returns "open" and spends no more
    than its budget: the safe-only search, which the focus was meant to spare, is not run
    on it (it is searched again with more, then expanded); the focused table gets half a
    worker's memory."""
    worker = Worker(SHEEP, 256 << 20, safe=True, focus=2)
    info = worker.search("W../W../.SSSS.S/SSSSSS./.S.SSSS/S.S/.SS s", 5_000)
    assert info["outcome"] == "open" and 5_000 <= info["nodes"] < 6_000
    assert set(worker.provers) == {(True, 2)}
    bits = worker_bits(1 << 30, True, 2)
    assert bits[(True, 2)] == table_bits_for(1 << 29)
    assert bits[(True, 0)] == table_bits_for(3 << 27)
    assert bits[(False, 0)] == table_bits_for(1 << 27)


# ply 37 of the horizon game (reports/ulvtafl-horizon.md): a focused proof of 250 positions
HORIZON_37 = "W.W/..S/.SSSS.S/SSSS.S./.S.SSSS/S.S/.SS s"


def test_seeds_reach_every_worker_and_stay_with_a_saved_tree(tmp_path: Path) -> None:
    """A tree's seed files go to each worker (its threads, or Ray actors, get the same
    arguments): a worker's leaf search of the seed's own root is proved at once, where an
    unseeded worker needs a search; a saved tree keeps its seeds, and a certificate of the
    other side is refused up front."""
    from fleece.solver.ulvtafl.certificate import Certificate, bare, write_certificate
    from fleece.solver.ulvtafl.prover import Prover

    root = bare(parse_position(HORIZON_37))
    prover = Prover(root, SHEEP, table_bits=18, safe_only=True, focus=2, profile="steps")
    assert prover.run(nodes=3_000_000) == "proved"
    strategy = prover.certificate()
    assert strategy is not None
    path = str(write_certificate(tmp_path / "h37.json.gz", Certificate(root, "sheep", strategy)))
    kw = {"memory": "128M", "safe_leaves": True, "focus_leaves": 2, "profile": "steps"}
    tree = ProofTree(root, SHEEP, seeds=(path,), **kw)  # type: ignore[arg-type]
    seeded = Worker(*tree._worker_args()).search(HORIZON_37, 3_000_000)
    plain = Worker(*ProofTree(root, SHEEP, **kw)._worker_args()).search(  # type: ignore[arg-type]
        HORIZON_37, 3_000_000)
    assert seeded["outcome"] == plain["outcome"] == "proved"
    assert seeded["nodes"] < 100 < plain["nodes"]
    tree.save(tmp_path / "tree")
    assert ProofTree.load(tmp_path / "tree", memory="128M").seeds == (path,)
    with pytest.raises(FleeceError, match="sheep's win cannot seed a search for the") as info:
        ProofTree(parse_position(HORIZON_37), WOLVES, seeds=(path,))
    assert info.value.source == path
