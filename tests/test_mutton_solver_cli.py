"""`fleece mutton solve` through the real entry point: report, JSON keys, exit statuses (0 fits,
1 inconsistent, 2 bad input), SVG writing, and no z3/python-constraint import on the fast path."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from fleece.solver.mutton import analyse, problem_from_text, solve

ROOT = Path(__file__).resolve().parent.parent
EX = ROOT / "examples" / "mutton"
HELP = str(EX / "helppage.txt")


def fleece(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "fleece", *args], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, timeout=120)


def one_line_error(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr + proc.stdout
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("fleece: error: "), proc.stderr
    return lines[0]


def test_help_page_report() -> None:
    out = fleece("mutton", "solve", HELP)
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "219 consistent wolf sets" in text
    assert ("C: round 2's runners were C, D and S; D and S were shot as sheep, so C killed J"
            in text)
    assert "Certain wolf: C: a shot at it cannot miss." in text
    assert "  shoot C now: expected sheep lost 4.1; waiting: 4.7; berserk on {A, B, C, F, G, " \
        "I, K, L, N, O, P, V, Y, Z}: 14.0\n" in text
    assert "57/73" in text  # F's exact probability in the table
    assert "g-  U C Q R" in text  # the board


def test_help_page_json_keys() -> None:
    out = fleece("mutton", "solve", HELP, "--json")
    assert out.returncode == 0
    data = json.loads(out.stdout)
    assert data["count"] == 219 and isinstance(data["count"], int)
    assert data["engine"] == "fast"
    probs = data["probabilities"]
    assert set(probs) == set("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    assert all(isinstance(p, float) and 0 <= p <= 1 for p in probs.values())
    assert probs["C"] == 1.0 and abs(probs["F"] - 57 / 73) < 1e-6
    assert data["fractions"]["F"] == "57/73"
    assert data["certain_wolves"] == ["C"]
    assert data["cleared"] == ["D", "H", "J", "S", "W"]
    assert data["berserk_set"] == sorted(data["berserk_set"]) and len(data["berserk_set"]) == 21
    assert data["reasons"]["C"]["text"].endswith("so C killed J")
    assert data["advice"]["best_shot"] == "C"
    # --json prints exactly the library's value: every exact probability and the advice agree
    p = problem_from_text((EX / "helppage.txt").read_text(encoding="utf-8"))
    s = solve(p)
    assert data["fractions"] == {a: f"{f.numerator}/{f.denominator}"
                                 for a, f in s.probabilities().items()}
    assert data["wolf_counts"] == s.wolf_counts
    assert sum(data["wolf_counts"].values()) == 4 * 219  # each set has 4 wolves
    assert data == json.loads(json.dumps(analyse(p).to_json()))


def test_engines_give_the_same_json() -> None:
    outs = [json.loads(fleece("mutton", "solve", HELP, "--json", "--engine", e).stdout)
            for e in ("fast", "csp", "smt")]
    for o in outs:
        assert (o["count"], o["fractions"], o["wolf_counts"], o["certain_wolves"]) == (
            219, outs[0]["fractions"], outs[0]["wolf_counts"], ["C"])
    assert outs[2]["engine"] == "smt" and "C" in outs[2]["proved"]


def test_inconsistent_chart_exit_1_with_core() -> None:
    out = fleece("mutton", "solve", str(EX / "typo.txt"))
    assert out.returncode == 1
    assert "Inconsistent" in out.stdout
    assert "round 2: J was eaten; C, D and S ran, so the killer is one of them" in out.stdout
    assert "C was shot and revealed as a sheep" in out.stdout
    data = json.loads(fleece("mutton", "solve", str(EX / "typo.txt"), "--json").stdout)
    assert data["consistent"] is False and data["count"] == 0
    assert [c["key"] for c in data["core"]] == ["status C", "status D", "status S", "row 2"]


def test_stdin_and_options() -> None:
    """Counts derived by hand. Five wolves on the help page: C is forced (round 2), and 4 more
    of the 20 other living candidates must meet {F, V} and {F, L, N, Z}: with F, C(19, 3) =
    969; without F, V and at least one of L, N, Z: C(18, 3) - C(15, 3) = 361; 1330 in all.

    no-reveal.json (no_reveal, 4 wolves): dead C J M S Z of unknown identity; the score 4 says
    exactly one of them is a wolf (D7). Round 1's only runner A is a wolf; rounds 2 and 4 then
    hold; round 3 needs one of C, K, O, R. Dead wolf C: 2 more of the 20 other living animals,
    C(20, 2) = 190; dead wolf J, M, S or Z: 2 of the 20 meeting K, O, R, C(20, 2) - C(17, 2)
    = 54 each, 216; total 406 (also counted by brute force over the 4-sets below)."""
    import itertools

    from fleece.rules.mutton.chart import Status, parse_chart

    text = (EX / "helppage.txt").read_text(encoding="utf-8")
    out = fleece("mutton", "solve", "-", "--json", "--wolves", "5", stdin=text)
    assert json.loads(out.stdout)["count"] == 969 + 361 == 1330
    out = fleece("mutton", "solve", str(EX / "no-reveal.json"), "--json")
    data = json.loads(out.stdout)
    assert data["reveal"] is False and data["count"] == 190 + 4 * 54 == 406
    paste = json.loads((EX / "no-reveal.json").read_text(encoding="utf-8"))["paste"]
    ch = parse_chart(paste, reveal=False)
    dead = {a for a, st in zip(ch.animals, ch.status, strict=True) if st is not Status.ALIVE}
    assert dead == set("CJMSZ") and ch.score == 4
    brute = sum(1 for w in map(set, itertools.combinations(ch.animals, 4))
                if len(w & dead) == 1 and all(w & r.runners for r in ch.rows))
    assert brute == 406
    out = fleece("mutton", "solve", HELP, "--dictionary", str(EX / "words.txt"), "--json")
    assert json.loads(out.stdout)["certain_wolves"] == ["C", "F"]
    out = fleece("mutton", "solve", HELP, "--passed")
    assert out.returncode == 1 and "the Wolf passed this turn although C stood next to" in \
        out.stdout


def test_escaped_option() -> None:
    chart = "Sheep   : A B C x x F\nRound  1: +       x\n"
    data = json.loads(fleece("mutton", "solve", "-", "--json", "--wolves", "2", "--no-reveal",
                             "--escaped", "d", stdin=chart).stdout)
    assert data["certain_wolves"] == ["A", "D"]


def test_record_input_shows_the_wolf_model() -> None:
    """The Wolf-model column is the library's exact posterior, rounded for JSON (the model
    itself is checked against an independent oracle in tests/test_mutton_model_oracle.py)."""
    from fleece.solver.mutton import problem_from_record

    out = fleece("mutton", "solve", str(EX / "wolf-pass.rec"))
    assert out.returncode == 0
    assert "P, Wolf model" in out.stdout
    assert "the Wolf passed in round 2 although" in out.stdout
    data = json.loads(fleece("mutton", "solve", str(EX / "wolf-pass.rec"), "--json").stdout)
    assert data["model"]["available"] and data["model"]["sets"] == 4 == data["count"]
    model = solve(problem_from_record((EX / "wolf-pass.rec").read_text(encoding="utf-8"))).model
    assert model is not None and model.available
    assert data["model"]["probabilities"] == {a: round(float(model.probability(a)), 6)
                                              for a in data["probabilities"]}
    assert data["model"]["likelihood"] == str(model.total)
    # the certain wolf N (probability 1 under both posteriors) stays 1 under the model
    assert data["fractions"]["N"] == "1/1" and data["model"]["probabilities"]["N"] == 1.0


def test_svg_written_atomically_and_not_overwritten(tmp_path: Path) -> None:
    target = tmp_path / "board.svg"
    out = fleece("mutton", "solve", HELP, "--svg", str(target))
    assert out.returncode == 0
    root = ET.fromstring(target.read_text())
    assert root.tag.endswith("svg")
    texts = [t.text for t in root.iter() if t.tag.endswith("text")]
    assert "C" in texts and "wolf" in texts
    polygons = [p for p in root.iter() if p.tag.endswith("polygon")]
    assert len(polygons) == 37  # every cell of the size-4 board
    before = target.read_text()
    line = one_line_error(fleece("mutton", "solve", HELP, "--svg", str(target)))
    assert "already exists" in line and "--force" in line
    assert fleece("mutton", "solve", HELP, "--svg", str(target), "--force").returncode == 0
    assert target.read_text() == before
    line = one_line_error(fleece("mutton", "solve", str(EX / "typo.txt"), "--svg",
                                 str(tmp_path / "x.svg")))
    assert "needs the board" in line


def test_bad_input_one_line_errors(tmp_path: Path) -> None:
    assert "choose one of fast, csp, smt" in one_line_error(
        fleece("mutton", "solve", HELP, "--engine", "x"))
    assert "number of wolves" in one_line_error(fleece("mutton", "solve", HELP, "--wolves",
                                                       "14"))
    bad = tmp_path / "bad.txt"
    bad.write_text("Sheep   : A B C\nRound  1: x + +   +\n")
    line = one_line_error(fleece("mutton", "solve", str(bad)))
    assert str(bad) in line and "line 2" in line
    assert "needs the board" in one_line_error(fleece("mutton", "solve", str(EX / "typo.txt"),
                                                      "--passed"))
    assert "not an animal letter" in one_line_error(fleece("mutton", "solve", HELP,
                                                           "--escaped", "1"))
    assert "no-such" in one_line_error(fleece("mutton", "solve", str(tmp_path / "no-such")))


def test_fast_path_imports_neither_z3_nor_constraint() -> None:
    code = (
        "import sys\n"
        f"sys.argv = ['fleece', 'mutton', 'solve', {HELP!r}]\n"
        "import fleece.cli as cli\n"
        "code = 'returned'\n"
        "try:\n    cli.app()\nexcept SystemExit as e:\n    code = e.code\n"
        "sys.stderr.write(f\"MODULES {'z3' in sys.modules} {'constraint' in sys.modules} "
        "EXIT {code}\\n\")\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, timeout=60)
    # the solve itself must have succeeded (exit 0) with its report printed
    assert "MODULES False False EXIT 0" in out.stderr, out.stderr
    assert "219 consistent wolf sets" in out.stdout
