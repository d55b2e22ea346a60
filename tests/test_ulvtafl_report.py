"""The committed Ulvtafl start report: its markdown is exactly its JSON rendered by the
benchmark's own renderer (no figure typed by hand, none left behind by an older run), and
every value it claims comes with the figures of a checked proof."""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import ModuleType

from helpers.benchmarks import load_benchmark

ROOT = Path(__file__).resolve().parent.parent
REPORT = ROOT / "reports" / "ulvtafl-start"


def _bench() -> ModuleType:
    return load_benchmark("bench_ulvtafl")


def test_the_report_markdown_is_its_json_rendered() -> None:
    bench = _bench()
    data = json.loads(REPORT.with_suffix(".json").read_text(encoding="utf-8"))
    text = bench.markdown(bench.public_command(data["command"]), data["speed"],
                          data["setups"], data["variants"], data["started"], data["seconds"])
    written = REPORT.with_suffix(".md").read_text(encoding="utf-8")
    # `--render` writes the markdown again from the JSON and says so in one sentence
    written = re.sub(r"\n\nMarkdown written again from the JSON by `[^`]*`\.", "", written)
    assert written == text + "\n"
    assert "/tmp/" not in text  # the checkpoint folder is the reader's DIR


def test_every_file_the_report_names_is_in_the_repository() -> None:
    """The report points readers at certificates, other reports and the 20-sheep page: each
    named file exists, so a renamed or moved file cannot leave a dead pointer behind."""
    text = REPORT.with_suffix(".md").read_text(encoding="utf-8")
    named = set(re.findall(r"\b((?:docs|reports)/[\w./-]+\.(?:md|json|gz))", text))
    assert "docs/ulvtafl-20-sheep.md" in named
    missing = sorted(name for name in named if not (ROOT / name).is_file())
    assert not missing, missing


def test_every_claimed_value_has_a_checked_proof_size() -> None:
    """A start or variant is 'sheep' or 'wolves' only with the proof size its certificate
    check counted; 'unknown' rows carry the work spent."""
    data = json.loads(REPORT.with_suffix(".json").read_text(encoding="utf-8"))
    rows = data["setups"] + data["variants"]["limits"] + [
        v for v in data["variants"]["wolf_anywhere"] if v.get("nodes", 0) > 0]
    assert rows
    for row in rows:
        if row["value"] in ("sheep", "wolves"):
            assert isinstance(row["proof_size"], int) and row["proof_size"] > 0, row
        else:
            assert row["value"] in ("unknown", "draw") and row["nodes"] > 0, row


def test_committed_variant_certificates_check_and_match_their_rows() -> None:
    """A movement-limit variant proved by the proof tree names a certificate file beside the
    report: its root is the variant's start under those limits, and the reference model
    alone confirms it with the proof size the row reports."""
    from fleece.rules.ulvtafl.game import UlvtaflOptions, initial_state
    from fleece.rules.ulvtafl.notation import position_text
    from fleece.solver.ulvtafl.certificate import read_certificates

    bench = _bench()
    data = json.loads(REPORT.with_suffix(".json").read_text(encoding="utf-8"))
    filed = [v for v in data["variants"]["limits"] if isinstance(v.get("certificate"), str)]
    for row in filed:
        (cert,) = read_certificates(REPORT.parent / row["certificate"])
        start = initial_state(UlvtaflOptions(setup=row["setup"],
                                             rules=bench.LIMITS[row["limits"]]))
        assert position_text(cert.root) == row["position"] == position_text(start)
        assert cert.winner == row["value"] == "sheep"
        assert len(cert.strategy) == row["strategy_positions"]
        assert cert.check() == row["proof_size"]
    roots = {position_text(c.root) for c in read_certificates(REPORT.with_suffix(".json"))}
    assert {row["position"] for row in filed} <= roots  # `certificate check` reads them too


def test_settle_variants_grows_a_tree_for_an_unknown_variant(tmp_path: Path) -> None:
    """`--settle-variants`: a variant row left unknown gets a proof tree; proved, the row
    takes the checked proof size and a certificate file beside the report, the markdown
    says how, and a saved tree is resumed rather than searched again."""
    bench = _bench()
    data = json.loads(REPORT.with_suffix(".json").read_text(encoding="utf-8"))
    rows = [v for v in data["variants"]["limits"]
            if v["setup"] == 17 and v["limits"] == "wolf diagonal only capturing"]
    rows[0].update(value="unknown", proof_size=None, nodes=1000)
    data["variants"]["limits"] = rows
    base = tmp_path / "start"
    base.with_suffix(".json").write_text(json.dumps(data), encoding="utf-8")
    out = bench.settle_variants(base, 120.0, "64M", 1, "python settle", str(tmp_path / "t"))
    (row,) = out["variants"]["limits"]
    assert row["value"] == "sheep" and row["tree"]["outcome"] == "proved", row
    assert row["tree"]["runs"] == 1 and row["tree"]["nodes"] > 0
    path = tmp_path / row["certificate"]
    assert path.name == "start-17-wolf-diagonal-only-capturing.cert.json.gz"
    from fleece.solver.ulvtafl.certificate import read_certificates

    (cert,) = read_certificates(path)
    assert cert.check() == row["proof_size"] and len(cert.strategy) == row["strategy_positions"]
    text = bench.markdown("python bench", None, out["setups"], out["variants"], "now", 1.0)
    assert "- 17 sheep, wolf diagonal only capturing (`python settle`, run " in text
    assert f"then the tree {row['tree']['nodes']:,} nodes" in text
    assert f"| 17 | wolf diagonal only capturing | sheep | {row['proof_size']:,} | " \
           f"{1000 + row['tree']['nodes']:,} |" in text
    # the saved tree is resumed: no new search, the same totals
    base.with_suffix(".json").write_text(json.dumps(data), encoding="utf-8")
    again = bench.settle_variants(base, 120.0, "64M", 1, "python settle", str(tmp_path / "t"))
    (row2,) = again["variants"]["limits"]
    assert row2["tree"]["nodes"] == row["tree"]["nodes"] and row2["tree"]["runs"] == 2
    assert row2["proof_size"] == row["proof_size"]


def test_the_balance_verdict_counts_the_variant_rows() -> None:
    """U6 asks whether each variant is balanced: the verdict counts the rows' values, names
    the open ones and the wolf's winning points, and calls nothing unbalanced that is not."""
    bench = _bench()
    var = {"limits": [{"setup": 13, "limits": "both limits", "value": "sheep"},
                      {"setup": 15, "limits": "sheep never diagonal", "value": "unknown"}],
           "wolf_anywhere": [{"setup": 13, "wolf": "d7", "value": "sheep"},
                             {"setup": 13, "wolf": "a5", "value": "sheep"}]}
    text = bench.balance(var)
    assert text.startswith("Of the 4 one-wolf variants above (2 movement limits, 2 starting "
                           "points), 3 are settled: the sheep win 3, the wolves 0, and 0 are "
                           "draws. No starting point wins for the wolf. None is balanced")
    assert text.endswith("Still open: 15 sheep, sheep never diagonal.")
    var["wolf_anywhere"][1]["value"] = "wolves"
    var["limits"][0]["value"] = "draw"
    text = bench.balance(var)
    assert "the sheep win 1, the wolves 1, and 1 are draws" in text
    assert "The wolf wins from a5 (13 sheep)." in text and "None is balanced" not in text


def test_an_open_variant_tree_shows_its_first_moves_and_line() -> None:
    """A variant the tree left open says which of the wolf's first moves are proved, the
    numbers of the open ones and the line the tree would look at next."""
    bench = _bench()
    tree = {"outcome": "timeout", "nodes": 5000, "seconds": 3.0, "workers": 2, "runs": 1,
            "memory": "1G", "tree_nodes": 9, "leaf_searches": 4, "proof_number": 31,
            "disproof_number": 1200,
            "root_moves": [{"move": "d7-c7", "outcome": "proved", "proof_number": 0,
                            "disproof_number": 2**40},
                           {"move": "d7-d6", "outcome": "open", "proof_number": 31,
                            "disproof_number": 1200}],
            "line": ["d7-d6", "b3-b4"], "command": "python settle", "started": "now"}
    var = {"limits": [{"setup": 13, "limits": "sheep never diagonal", "value": "unknown",
                       "nodes": 100, "tree": tree}],
           "wolf_anywhere": []}
    text = bench.markdown("python bench", None, [], var, "now", 1.0)
    assert ("| 13 | sheep never diagonal | unknown | - | 5,100 |" in text)
    assert ("timeout, root proof number 31, disproof number 1,200; the wolf's first moves "
            "(open ones with their numbers): d7-c7 proved, d7-d6 open (31/1,200); the "
            "most-proving line: d7-d6 b3-b4\n") in text


def test_the_frontier_line_keeps_to_what_a_restricted_search_holds() -> None:
    """The most-proving line of an open safe-only search walks only through positions its
    table holds, stops at the first settled one (or where the table holds no child), and so
    never shows a sheep move the search did not play (one after which a wolf can capture);
    a root move the table does not hold has no numbers rather than invented ones."""
    from fleece.rules.ulvtafl.game import SHEEP, wolf_captures
    from fleece.rules.ulvtafl.notation import parse_move, parse_position

    bench = _bench()
    root = parse_position("W../W../.SSSS.S/SSSSSS./.S.SSSS/S.S/.SS s")
    prover = bench.Prover(root, SHEEP, table_bits=16, safe_only=True, focus=2,
                          profile="steps")
    prover.run(nodes=300_000)
    assert prover.outcome() == "open"
    f = bench.frontier(prover)
    assert len(f["most_proving_line"]) >= 4
    state = root
    for i, text in enumerate(f["most_proving_line"]):
        numbers = prover.numbers(state)
        assert numbers is not None and 0 not in numbers, (i, text)
        mover = state.to_move
        state = state.play(parse_move(text))
        assert prover.numbers(state) is not None, (i, text)
        if mover == SHEEP:
            assert not any(True for _ in wolf_captures(state.rules, state.sheep, state.wolves))
    assert len(f["root_moves"]) == len(list(root.legal_moves()))
    for k in f["root_moves"]:
        held = prover.numbers(root.play(parse_move(k["move"])))
        assert (k["proof_number"] is None) == (held is None), k
        assert k["work"] == 0 or held is not None, k


def test_update_twenty_puts_a_new_20_sheep_search_in_place_of_the_old(tmp_path: Path
                                                                        ) -> None:
    """`--update-twenty`: the 20-sheep row is replaced by this run's (the other rows kept,
    in order), names its command and date, and keeps its root numbers over time; resumed
    from its checkpoint, the figures add up and the earlier points stay."""
    bench = _bench()
    data = json.loads(REPORT.with_suffix(".json").read_text(encoding="utf-8"))
    base = tmp_path / "start"
    base.with_suffix(".json").write_text(json.dumps(data), encoding="utf-8")
    folder = str(tmp_path / "twenty")
    out = bench.update_twenty(base, 1.0, "64M", folder, False, "python upd")
    assert [r["setup"] for r in out["setups"]] == [13, 15, 17, 20]
    assert out["setups"][:3] == data["setups"][:3]
    row = out["setups"][3]
    assert row["command"] == "python upd" and row["nodes"] > 0
    assert row["nodes"] != data["setups"][3]["nodes"]
    assert row["history"][-1]["nodes"] == row["nodes"]
    text = bench.render(out)
    assert "Run again on its own by `python upd`, " in text
    assert f"| 20 sheep | {row['value']}: the wolves cannot win | {row['nodes']:,} |" in text
    bound = row["no_loss"]  # an unknown start gets the fortress search's bound
    assert (bound["outcome"], bound["certificate"]) == ("found", "start-20-no-loss.cert.json.gz")
    assert (tmp_path / bound["certificate"]).is_file()
    assert f"gives the sheep's move in {bound['strategy_positions']:,} positions" in text
    last = row["history"][-1]
    assert (f"1 of 1 points: {last['seconds']:,.0f} s, {last['nodes']:,}: "
            f"{last['proof_number']}/{last['disproof_number']}") in text
    base.with_suffix(".json").write_text(json.dumps(out), encoding="utf-8")
    again = bench.update_twenty(base, 1.0, "64M", folder, True, "python upd --resume")
    row2 = again["setups"][3]
    assert row2["nodes"] > row["nodes"] and len(row2["trace"]) == 2
    assert row2["history"][0] == row["history"][0] and len(row2["history"]) == 2
    assert "2 of 2 points" in bench.render(again)


def test_a_large_start_certificate_goes_to_a_file_beside_the_report(tmp_path: Path) -> None:
    """A certificate of more than 5,000 positions is written beside the report as
    PATH-<setup>.cert.json.gz, holding every entry, and the row names the file; a smaller
    one stays in the row."""
    bench = _bench()
    from fleece.solver.ulvtafl.certificate import read_certificates

    start = "W.W/.../......./SSSSSSS/SSSSSSS/SSS/SSS w"
    big = {f"position {i}": "d3-d4" for i in range(5001)}
    row = {"setup": 20, "position": start, "value": "sheep", "certificate": dict(big)}
    bench.certificate_beside(tmp_path / "start", row)
    assert row["certificate"] == "start-20.cert.json.gz"
    (cert,) = read_certificates(tmp_path / "start-20.cert.json.gz")
    assert cert.strategy == big and cert.winner == "sheep"
    small = {"setup": 17, "position": start, "value": "sheep", "certificate": {"a": "b"}}
    bench.certificate_beside(tmp_path / "start", small)
    assert small["certificate"] == {"a": "b"} and not (tmp_path / "start-17.cert.json.gz").exists()
