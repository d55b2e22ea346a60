"""Proof certificates: the reference-model check accepts the committed proofs and rejects
every kind of broken strategy (a line that does not end in a win, a reply left out, a
repeated position, an illegal move); files round-trip; the split search's certificates
(threads and Ray) check too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fleece.rules.ulvtafl.game import SHEEP, UlvState, UlvtaflOptions, initial_state
from fleece.rules.ulvtafl.notation import parse_move, parse_position, position_text
from fleece.solver.ulvtafl.certificate import (
    Certificate,
    CertificateError,
    bare,
    check_certificate,
    check_file,
    longest_line,
    read_certificates,
    read_seeds,
    sample_check,
    settle,
    write_certificate,
)
from fleece.solver.ulvtafl.parallel import (
    mirror_move,
    mirror_position,
    next_unit,
    prove_split,
)

REPORT = Path(__file__).resolve().parent.parent / "reports" / "ulvtafl-start.json"
TRAPPED = "WSS/.SS/..SSS../..S.S../......./.../... w"  # c7-c6 d7-c7: the sheep win


def _committed() -> list[Certificate]:
    return read_certificates(REPORT)


def test_u7_committed_start_certificates_check_with_the_reference_model() -> None:
    """Every proved start value of the report has a certificate; the reference model alone
    (no compiled code) confirms each, and the report's proof size is what it holds."""
    rows = json.loads(REPORT.read_text(encoding="utf-8"))["setups"]
    proved = [r for r in rows if r["value"] in ("sheep", "wolves")]
    assert {13, 15, 17} <= {r["setup"] for r in proved}
    certs = {position_text(c.root): c for c in _committed()}
    for row in proved:
        cert = certs[row["position"]]
        if isinstance(row["certificate"], str):  # a file beside the report: sampled here
            assert sample_check(cert.root, cert.winner, cert.strategy, 200) > 0
            continue
        assert cert.check() == row["proof_size"]
        plies, line = longest_line(cert.root, cert.winner, cert.strategy)
        assert len(line) == plies == row["plies_within"]


def _small() -> Certificate:
    """The 17-sheep certificate of the report (the smallest)."""
    return min(_committed(), key=lambda c: len(c.strategy))


def test_a_missing_move_is_caught() -> None:
    cert = _small()
    bad = dict(cert.strategy)
    bad.pop(next(iter(bad)))
    with pytest.raises(CertificateError, match="no move in the strategy"):
        check_certificate(cert.root, cert.winner, bad)


def test_settle_claims_a_proof_only_with_a_certificate_that_checks() -> None:
    """A search's "proved" stays proved only with a strategy the reference rules accept
    (with its proof size); without one it is "proved-without-certificate"; a broken one
    is refused; other outcomes pass unchanged."""
    cert = _small()
    assert settle("proved", cert.root, cert.winner, cert.strategy) == \
        ("proved", check_certificate(cert.root, cert.winner, cert.strategy))
    assert settle("proved", cert.root, cert.winner, None) == \
        ("proved-without-certificate", None)
    assert settle("max-nodes", cert.root, cert.winner, None) == ("max-nodes", None)
    bad = dict(cert.strategy)
    bad.pop(next(iter(bad)))
    with pytest.raises(CertificateError, match="no move in the strategy"):
        settle("proved", cert.root, cert.winner, bad)


def test_a_wrong_winner_is_caught() -> None:
    cert = _small()
    with pytest.raises(CertificateError, match="no move in the strategy"):
        check_certificate(cert.root, "wolves", cert.strategy)


def test_a_line_that_does_not_end_in_a_win_is_caught() -> None:
    """A strategy whose move hands the game to the wolves (d4-d5 lets the wolf jump two
    sheep, leaving seven) must fail: the check looks at how every line ends."""
    state = parse_position(".../.W./......./...S..S/SSSSSSS/.../... s")
    assert not state.is_terminal()
    with pytest.raises(CertificateError, match="not a sheep win"):
        check_certificate(state, "sheep", {position_text(state): "d4-d5"})


def test_a_skipped_wolf_reply_is_caught() -> None:
    """The 17-sheep certificate without the sheep's answer to the wolf's last root reply:
    a check that followed only some replies would accept it."""
    cert = _small()
    replies = list(cert.root.legal_moves())
    assert len(replies) == 3
    bad = dict(cert.strategy)
    del bad[position_text(bare(cert.root.play(replies[-1])))]
    with pytest.raises(CertificateError, match="no move in the strategy"):
        check_certificate(cert.root, cert.winner, bad)
    bad = dict(cert.strategy)
    del bad[position_text(bare(cert.root.play(replies[0])))]
    with pytest.raises(CertificateError, match="no move in the strategy"):
        check_certificate(cert.root, cert.winner, bad)


def test_a_repeating_strategy_is_caught() -> None:
    """The wolf has one move at each step; the sheep step d3-e3 and back: the line returns
    to its first position, which proves nothing (U7)."""
    root = parse_position(".../S../SSS..../..S...S/..SS.../SSS/S.W s")
    after = root.play(parse_move("d3-e3")).play(parse_move("e1-d1"))
    strategy = {position_text(root): "d3-e3",
                position_text(UlvState.create(after.rules, after.sheep, after.wolves,
                                              after.to_move)): "e3-d3"}
    with pytest.raises(CertificateError, match="repeats a position"):
        check_certificate(root, "sheep", strategy)


def test_an_illegal_strategy_move_is_caught() -> None:
    cert = _small()
    bad = dict(cert.strategy)
    key = next(iter(bad))
    bad[key] = "d1-d2"
    with pytest.raises(CertificateError, match=r"not legal|no move"):
        check_certificate(cert.root, cert.winner, bad)


def test_certificate_files_round_trip_and_refuse_overwrites(tmp_path: Path) -> None:
    cert = _small()
    path = tmp_path / "c.json.gz"
    write_certificate(path, cert)
    with pytest.raises(CertificateError, match="already exists"):
        write_certificate(path, cert)
    (back,) = read_certificates(path)
    assert back.strategy == cert.strategy and back.winner == cert.winner
    assert check_file(path)[0]["proof_positions"] == cert.check()
    (tmp_path / "junk.gz").write_bytes(b"\x1f\x8bnot gzip")
    with pytest.raises(CertificateError) as info:
        read_certificates(tmp_path / "junk.gz")
    assert "\n" not in str(info.value)


def test_seed_files_are_checked_once_until_they_change(tmp_path: Path) -> None:
    """read_seeds keeps a file's verified proof for the process (one check however many
    searches it seeds) and checks it again once the file is replaced."""
    import os

    cert = _small()
    path = write_certificate(tmp_path / "seed.json.gz", cert)
    seen: list[Certificate] = []
    first = read_seeds(str(path), seen.append)
    assert read_seeds(str(path), seen.append) is first and len(seen) == 1
    ((back, order),) = first
    assert back.strategy == cert.strategy and len(order) >= cert.check()
    write_certificate(path, cert, overwrite=True)
    os.utime(path, ns=(1, 1))  # a replaced file: another modification time
    again = read_seeds(str(path), seen.append)
    assert again is not first and len(seen) == 2
    assert read_seeds(str(path), seen.append) is again


def test_mirror_of_a_mirror_is_the_same() -> None:
    text = "..W/.../......./SS...SS/SSSSSSS/SSS/SSS s"
    assert mirror_position(text) == "W../.../......./SS...SS/SSSSSSS/SSS/SSS s"
    assert mirror_position(mirror_position(text)) == text
    assert mirror_move("a3-b4") == "g3-f4" and mirror_move("d5xb3xd1") == "d5xf3xd1"


def test_split_search_with_threads_proves_the_17_sheep_start() -> None:
    """Three units (d7-c7 is d7-e7's mirror image, searched once), two threads; the joined
    certificate checks with the reference model."""
    start = initial_state(UlvtaflOptions(setup=17))
    seen: list[dict[str, object]] = []
    result = prove_split(start, SHEEP, workers=2, memory="256M", chunk=300_000,
                         progress=seen.append)
    assert result.outcome == "proved" and result.certificate is not None
    assert [u.mirror_of for u in result.units] == [None, 0, None]
    assert check_certificate(start, "sheep", result.certificate) > 0
    # the progress report (at most one every 10 s, and the last): the line's figures
    last = seen[-1]
    assert last["outcome"] == "proved" and last["open"] == 0
    rate = last["nodes_per_second"]
    assert last["nodes"] == result.nodes and isinstance(rate, int) and rate > 0


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_the_split_search_gives_every_open_unit_its_turn(workers: int) -> None:
    """The split search's scheduling (next_unit), with workers finishing in the order they
    started or in a random order: over 1,200 chunks, six units get about 200 each (to one
    chunk in order; to a third of that in a random order)."""
    import random

    for shuffled in (False, True):
        rng = random.Random(workers)
        counts = dict.fromkeys(range(6), 0)
        running: list[int] = []
        last = -1
        for _ in range(1200):
            free = [i for i in range(6) if i not in running]
            while free and len(running) < workers:
                last = next_unit(free, last)
                free.remove(last)
                running.append(last)
                counts[last] += 1
            running.pop(rng.randrange(len(running)) if shuffled else 0)
        spread = max(counts.values()) - min(counts.values())
        assert spread <= (70 if shuffled else 1), counts


def test_split_search_on_a_local_ray_instance() -> None:
    """The same units as Ray actors on a local Ray instance (the `scale` extra)."""
    import ray  # the test extra installs the scale extra: this test always runs

    assert ray.__version__
    root = parse_position(TRAPPED)
    result = prove_split(root, SHEEP, workers=1, memory="64M", chunk=10_000,
                         ray_address="local")
    assert result.executor == "ray" and result.outcome == "proved"
    assert result.certificate is not None
    assert check_certificate(root, "sheep", result.certificate) == 2
