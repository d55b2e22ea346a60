"""`fleece serve`'s app through an HTTP test client: every page and every JSON endpoint with
good and bad input.

The JSON twins must return exactly what the command line's `--json` prints, so each is
compared byte for byte with the command run in this process (tests/helpers/clirun.py) on the same
input; bad input must be a 400 with the one-line message the command prints for the same text
(the command reads a file named after the form field, as the app names it). Pages are checked
for what they must show (the counts, the certain wolf, the marked lines), for escaping of
every user string, and for the security headers.
"""

from __future__ import annotations

import builtins
import io
import json
import math
import os
import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from html import unescape
from pathlib import Path
from typing import Any, ClassVar

import pytest
from helpers.clirun import invoke
from starlette.testclient import TestClient

from fleece.api import mutton as mutton_api
from fleece.web.app import CSP, Config, create_app, is_loopback
from fleece.web.body import MAX_BODY

ROOT = Path(__file__).resolve().parent.parent
EX = ROOT / "examples"
HELPPAGE = (EX / "mutton" / "helppage.txt").read_text(encoding="utf-8")
TYPO = (EX / "mutton" / "typo.txt").read_text(encoding="utf-8")
RULEBOOK5 = (EX / "woof" / "rulebook5.txt").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    """One app (two workers) for the module; the budget is generous for z3 on a slow CI."""
    app = create_app(Config(workers=2, budget=60.0))
    with TestClient(app, base_url="http://localhost") as c:
        yield c


def cli_stdout(args: list[str], expect: int = 0) -> str:
    """What `fleece ARGS` prints on standard output (its exit status checked)."""
    r = invoke(args)
    assert r.exit_code == expect, r.output
    return r.stdout


def web_message(cli: str) -> str:
    """What the web says for the command line's error `cli` (without `fleece: error: `): the
    same words, with each option named as the JSON field (`--max-states` is `max_states`)
    and without the command's name in front of a usage error. The library error behind both
    carries the field; each front end names it its own way (fleece.cli, fleece.web.pool)."""
    cli = re.sub(r"^fleece( [a-z]+)+: ", "", cli)
    return re.sub(r"--([a-z][a-z0-9-]*)", lambda m: m.group(1).replace("-", "_"), cli)


def cli_error(args: list[str], tmp_path: Path, name: str, text: str,
              monkeypatch: pytest.MonkeyPatch) -> str:
    """The one-line error `fleece ARGS` prints for `text` read from a file called `name`
    (the field's name), as the web words it (web_message)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / name).write_text(text, encoding="utf-8")
    r = invoke([a if a != "FILE" else name for a in args])
    assert r.exit_code == 2, r.output
    assert r.stdout == ""
    line = r.stderr.rstrip("\n")
    assert "\n" not in line and line.startswith("fleece: error: ")
    return web_message(line[len("fleece: error: "):])


def api_error(client: TestClient, path: str, body: dict[str, Any], status: int = 400) -> str:
    r = client.post(path, json=body)
    assert r.status_code == status, r.text
    data = r.json()
    assert list(data) == ["error"]
    assert "\n" not in data["error"]
    message: str = data["error"]
    return message


# ---- Mutton -------------------------------------------------------------------------------

MUTTON_CASES = [
    ("helppage", {"chart": HELPPAGE}, ["examples/mutton/helppage.txt"], 0),
    ("typo", {"chart": TYPO}, ["examples/mutton/typo.txt"], 1),
    ("record", {"chart": (EX / "mutton" / "wolf-pass.rec").read_text(encoding="utf-8")},
     ["examples/mutton/wolf-pass.rec"], 0),
    ("json", {"chart": (EX / "mutton" / "no-reveal.json").read_text(encoding="utf-8")},
     ["examples/mutton/no-reveal.json"], 0),
    ("options", {"chart": HELPPAGE, "wolves": 5, "engine": "csp", "escaped": ""},
     ["examples/mutton/helppage.txt", "--wolves", "5", "--engine", "csp"], 0),
    ("dictionary", {"chart": HELPPAGE,
                    "dictionary": (EX / "mutton" / "words.txt").read_text(encoding="utf-8")},
     ["examples/mutton/helppage.txt", "--dictionary", "examples/mutton/words.txt"], 0),
    ("no-reveal", {"chart": HELPPAGE, "no_reveal": True},
     ["examples/mutton/helppage.txt", "--no-reveal"], 0),
]


@pytest.mark.parametrize("name,body,args,status", MUTTON_CASES,
                         ids=[c[0] for c in MUTTON_CASES])
def test_mutton_api_is_the_cli_json(client: TestClient, name: str, body: dict[str, Any],
                                    args: list[str], status: int,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """POST /api/mutton/solve returns `fleece mutton solve --json`'s output byte for byte
    (an inconsistent chart is a result: 200 here, exit status 1 there)."""
    monkeypatch.chdir(ROOT)
    expected = cli_stdout(["mutton", "solve", *args, "--json"], expect=status)
    r = client.post("/api/mutton/solve", json=body)
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("application/json")
    assert r.text == expected


def test_mutton_api_helppage_values(client: TestClient) -> None:
    """The help page's chart (README): 219 wolf sets of 4, C certainly a wolf."""
    data = client.post("/api/mutton/solve", json={"chart": HELPPAGE}).json()
    assert data["count"] == 219
    assert "C" in data["certain_wolves"]
    assert data["fractions"]["C"] == "1/1"


BAD_CHARTS = [
    "Sheep   : A B C D\nRound  1:   Q\n",
    "Sheep   : A B C x E F\nRound  1:  x +\n",
    "<script>alert('x')</script>\n",
    "Sheep   : A B C D E F G H\nRound  1:       x   +\nRound  1:   +   x\n",
]


@pytest.mark.parametrize("text", BAD_CHARTS)
def test_mutton_bad_chart_is_400_with_the_cli_message(client: TestClient, text: str,
                                                       tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    expected = cli_error(["mutton", "solve", "FILE"], tmp_path, "chart", text, monkeypatch)
    assert api_error(client, "/api/mutton/solve", {"chart": text}) == expected


@pytest.mark.parametrize("extra,args", [
    ({"engine": "quantum"}, ["--engine", "quantum"]),
    ({"escaped": "G,7"}, ["--escaped", "G,7"]),
    ({"wolves": 40}, ["--wolves", "40"]),
])
def test_mutton_bad_option_is_400_with_the_cli_message(client: TestClient,
                                                        extra: dict[str, Any],
                                                        args: list[str], tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    expected = cli_error(["mutton", "solve", "FILE", *args], tmp_path, "chart", HELPPAGE,
                         monkeypatch)
    assert api_error(client, "/api/mutton/solve", {"chart": HELPPAGE, **extra}) == expected


def test_mutton_page_shows_the_cli_message_for_a_bad_option(client: TestClient,
                                                              tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch
                                                              ) -> None:
    """The form's options are refused as the command refuses them, next to the form."""
    expected = cli_error(["mutton", "solve", "FILE", "--escaped", "G,7"], tmp_path, "chart",
                         HELPPAGE, monkeypatch)
    r = client.post("/mutton", data={"chart": HELPPAGE, "escaped": "G,7"})
    assert r.status_code == 400
    assert f"<strong>Error:</strong> {expected}</p>" in unescape(r.text)
    assert 'id="result"' not in r.text


@pytest.mark.parametrize("body,fragment", [
    ({}, "chart: missing"),
    ({"chart": 7}, "chart: expected text"),
    ({"chart": HELPPAGE, "wolves": True}, "wolves: expected a whole number"),
    ({"chart": HELPPAGE, "wolves": 4.0}, "wolves: expected a whole number"),
    ({"chart": HELPPAGE, "wolves": -1}, "wolves: -1 is out of range"),
    ({"chart": HELPPAGE, "wolves": 10**40}, "wolves: a huge number is out of range"),
    ({"chart": HELPPAGE, "passed": "yes"}, "passed: expected true or false"),
    ({"chart": HELPPAGE, "wolfs": 4}, "unknown field 'wolfs'"),
    ({"chart": "x\x00y"}, "chart: contains a NUL character"),
])
def test_mutton_api_refuses_bad_fields(client: TestClient, body: dict[str, Any],
                                       fragment: str) -> None:
    assert fragment in api_error(client, "/api/mutton/solve", body)


@pytest.mark.parametrize("raw,fragment", [
    (b"{", "invalid JSON: line 1, column 2"),
    (b"[1, 2]", "the body must be a JSON object"),
    (b'{"chart": "a", "chart": "b"}', "field 'chart' given twice"),
    (b"[" * 100_000, "invalid JSON"),
    (b'{"chart": "a", "wolves": NaN}', "NaN is not a number"),
    (b'{"wolves": ' + b"9" * 5000 + b"}", "invalid JSON"),
    (b"\xff\xfe", "not UTF-8"),
])
def test_api_refuses_malformed_json(client: TestClient, raw: bytes, fragment: str) -> None:
    r = client.post("/api/mutton/solve", content=raw,
                    headers={"content-type": "application/json"})
    assert r.status_code == 400
    assert fragment in r.json()["error"]


@pytest.mark.parametrize("path,body", [
    ("/api/mutton/play/record", {"seed": 23347, "moves": ["5\n\u2028x", "4"]}),
    ("/api/woof/solve", {"engine": "fast\nslow", "evidence": "x"}),
])
def test_a_refusal_quoting_a_line_break_stays_one_line(client: TestClient, path: str,
                                                      body: dict[str, Any]) -> None:
    """A message that quotes the input (a move, an engine name) writes its line breaks and
    invisible characters as escapes, as the command line does: one line, still naming the
    bad value (schemathesis found both)."""
    r = client.post(path, json=body)
    assert r.status_code == 400
    message = r.json()["error"]
    assert "\n" not in message and "\u2028" not in message and "\\n" in message


def test_no_body_is_an_empty_object_but_white_space_is_not_json(client: TestClient) -> None:
    """A route whose fields all have defaults takes a request without a body as `{}`; a body
    of white space alone is malformed JSON (400), as the schema says."""
    r = client.post("/api/ulvtafl/board", headers={"content-type": "application/json"})
    assert r.status_code == 200 and r.json()["to_move"] == "wolves"
    r = client.post("/api/ulvtafl/board", content=b"\n",
                    headers={"content-type": "application/json"})
    assert r.status_code == 400 and "invalid JSON" in r.json()["error"]


def test_body_and_text_sizes_are_capped(client: TestClient) -> None:
    r = client.post("/api/mutton/solve", content=b"{" + b" " * (MAX_BODY + 10) + b"}",
                    headers={"content-type": "application/json"})
    assert r.status_code == 413
    assert "too large" in r.json()["error"]
    r = client.post("/api/woof/solve", json={"evidence": "#" * 150_000})
    assert r.status_code == 400
    assert r.json()["error"] == "evidence: too long (150000 characters, at most 100000)"
    # a page's form too, declared length or not
    big = b"chart=" + b"a" * (MAX_BODY + 10)
    r = client.post("/mutton", content=big,
                    headers={"content-type": "application/x-www-form-urlencoded"})
    assert r.status_code == 413 and "Too large" in r.text
    r = client.post("/woof/result", content=iter([big[:1000], big[1000:]]),
                    headers={"content-type": "application/x-www-form-urlencoded"})
    assert r.status_code == 413
    assert f"the body is too large (at most {MAX_BODY} bytes)" in r.text


def test_mutton_page_shows_board_table_facts_and_advice(client: TestClient) -> None:
    """The form's result: 219 sets, C a certain wolf with its reason (round 2's runners), the
    board with one shaded cell per living animal and each hover text's exact fraction."""
    r = client.post("/mutton", data={"chart": HELPPAGE, "wolves": "4", "engine": "fast"})
    assert r.status_code == 200
    html = r.text
    assert re.search(r'id="count" class="count"><strong>219</strong> consistent wolf sets',
                     html)
    certain = re.search(r'<ul id="certain-wolves">(.*?)</ul>', html, re.S)
    assert certain is not None
    assert 'data-letter="C"' in certain.group(1)
    assert "round 2" in certain.group(1).lower()
    data = client.post("/api/mutton/solve", json={"chart": HELPPAGE}).json()
    living = [a for a, p in data["probabilities"].items()
              if a in re.findall(r'data-letter="([A-Z])" data-exact', html)]
    cells = re.findall(r'<g class="cell animal (\w+) shade-(\d+)" tabindex="0" role="button" '
                       r'data-letter="([A-Z])" data-exact="([^"]+)"', html)
    assert len(cells) == 21  # the help page's board: 26 animals, 5 dead
    for kind, shade, letter, exact in cells:
        assert int(shade) == round(10 * data["probabilities"][letter])
        n, _, d = data["fractions"][letter].partition("/")
        expected = n if d == "1" else data["fractions"][letter]
        assert exact == expected
        assert kind == ("wolf" if exact == "1" else "cleared" if exact == "0" else "open")
    assert living
    decision = data["advice"]["decision"]
    advice = re.search(r'<p id="advice"><strong>(.*?)</strong>', html)
    assert advice is not None and unescape(advice.group(1)) == decision["line"]
    shown = re.findall(r"<li>(.*?)</li>", html.split('<ul id="assumptions">')[1].split("</ul>")[0])
    assert [unescape(x) for x in shown] == decision["assumptions"]
    assert "Certain wolf: <strong>C</strong>" in html
    shown = re.search(r'<details class="json">.*?<pre>(.*?)</pre>', html, re.S)
    assert shown is not None
    assert json.dumps(json.loads(unescape(shown.group(1))), indent=2) + "\n" == \
        client.post("/api/mutton/solve", json={"chart": HELPPAGE}).text


def test_mutton_page_marks_the_contradicting_facts_in_the_paste(client: TestClient) -> None:
    """The typo chart: the facts of the minimal core are marked where they stand in the
    pasted text (their rows, their marks in the Sheep row)."""
    api = client.post("/api/mutton/solve", json={"chart": TYPO}).json()
    html = client.post("/mutton", data={"chart": TYPO}).text
    assert 'id="inconsistent"' in html
    lines = re.findall(r'<span class="line( marked)?(?: error)?"><span class="no">\s*(\d+)'
                       r'</span> (.*?)\n</span>', html, re.S)
    marked = {int(no) for m, no, _ in lines if m}
    text_lines = TYPO.splitlines()
    for fact in api["core"]:
        key = fact["key"]
        if key.startswith("row "):
            no = next(i for i, t in enumerate(text_lines, 1)
                      if re.match(rf"Round\s+{key[4:]}:", t))
            assert no in marked, key
        elif key.startswith("status "):
            no = next(i for i, t in enumerate(text_lines, 1) if t.startswith("Sheep"))
            assert no in marked
            body = next(b for _, n, b in lines if int(n) == no)
            assert re.search(rf'<mark title="[^"]*{key[7:]} was[^"]*">', body), key


def test_mutton_page_marks_a_parse_error_where_it_is(client: TestClient) -> None:
    text = "Sheep   : A B C D\nRound  1:   Q\n"
    r = client.post("/mutton", data={"chart": text})
    assert r.status_code == 400
    assert 'class="line marked error"><span class="no">  2</span>' in r.text
    assert "<mark title=" in r.text


def test_user_strings_are_escaped_in_every_page(client: TestClient) -> None:
    """A chart (or evidence, or a position) holding `<script>` is shown as text."""
    evil = "<script>alert('owned')</script>"
    pages = [
        client.post("/mutton", data={"chart": evil}),
        client.post("/mutton", data={"chart": HELPPAGE + "\n" + evil}),
        client.post("/woof", data={"evidence": f"seats 5\n# {evil}\ndeck preset\n"}),
        client.post("/woof", data={"evidence": evil}),
        client.post("/woof/result", data={"evidence": evil}),
        client.post("/ulvtafl", data={"action": "move", "position": evil, "move": "d3-d4"}),
        client.post("/cards/war", data={"deck": evil}),
        client.post("/puzzles/woof/easy/001", data={"pick": evil}),
    ]
    for i, r in enumerate(pages):
        assert r.status_code in (200, 400), (i, r.text)
        assert "<script>alert" not in r.text
        assert "&lt;script&gt;alert(" in r.text, i
        assert "<script" not in r.text.replace('<script src="/static/app.js" defer></script>', "")


# ---- Woof!! -------------------------------------------------------------------------------

WOOF_CASES = [
    ("rulebook5", {"evidence": RULEBOOK5}, ["examples/woof/rulebook5.txt"], 0),
    ("dummy4", {"evidence": (EX / "woof" / "dummy4.txt").read_text(encoding="utf-8"),
                "me": 3, "dog_target": "wolf"},
     ["examples/woof/dummy4.txt", "--me", "3", "--dog-target", "wolf"], 0),
    ("contradiction", {"evidence": (EX / "woof" / "contradiction.txt").read_text("utf-8")},
     ["examples/woof/contradiction.txt"], 1),
    ("csp", {"evidence": RULEBOOK5, "engine": "csp"},
     ["examples/woof/rulebook5.txt", "--engine", "csp"], 0),
]


@pytest.mark.parametrize("name,body,args,status", WOOF_CASES, ids=[c[0] for c in WOOF_CASES])
def test_woof_api_is_the_cli_json(client: TestClient, name: str, body: dict[str, Any],
                                  args: list[str], status: int,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    expected = cli_stdout(["woof", "solve", *args, "--json"], expect=status)
    r = client.post("/api/woof/solve", json=body)
    assert r.status_code == 200
    assert r.text == expected


def test_woof_without_a_point_of_view(client: TestClient) -> None:
    """Evidence with no `me` line: no suggestion; the page and the API still answer (the
    command reads the same text from standard input)."""
    text = "seats 5\ndeck sheep*4 dog hunter*2 hunter? shepherd? wolf\nlook 1 2 wolf\n"
    r = invoke(["woof", "solve", "-", "--json"], stdin=text)
    assert r.exit_code == 0, r.output
    assert client.post("/api/woof/solve", json={"evidence": text}).text == r.stdout
    page = client.post("/woof", data={"evidence": text})
    assert page.status_code == 200 and 'id="beliefs"' in page.text
    assert 'id="suggestion"' not in page.text


@pytest.mark.parametrize("text,args", [
    ("seats 9\n", []),
    ("seats 5\ndeck preset\nlook 1 1 wolf\n", []),
    ("seats 5\ndeck preset\nhand 2 sheep dragon\n", []),
    (RULEBOOK5, ["--me", "9"]),
    (RULEBOOK5, ["--dog-target", "cat"]),
    (RULEBOOK5, ["--engine", "magic"]),
])
def test_woof_bad_input_is_400_with_the_cli_message(client: TestClient, text: str,
                                                     args: list[str], tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    expected = cli_error(["woof", "solve", "FILE", *args], tmp_path, "evidence", text,
                         monkeypatch)
    body: dict[str, Any] = {"evidence": text}
    for flag, value in zip(args[::2], args[1::2], strict=True):
        key = flag.lstrip("-").replace("-", "_")
        body[key] = int(value) if value.isdigit() else value
    assert api_error(client, "/api/woof/solve", body) == expected


def test_woof_page_and_fragment(client: TestClient) -> None:
    """The page shows the table of exact beliefs; the fragment (what the editor's script
    asks for) holds the same table; contradicting lines are marked on the text."""
    page = client.post("/woof", data={"evidence": RULEBOOK5, "engine": "fast"}).text
    api = client.post("/api/woof/solve", json={"evidence": RULEBOOK5}).json()
    assert 'id="beliefs"' in page
    for seat, dist in api["characters"].items():
        for character, p in dist.items():
            assert f'title="seat {seat} is {character} with probability ' in page
            assert p > 0
    fragment = client.post("/woof/result", data={"evidence": RULEBOOK5}).text
    assert "<html" not in fragment and 'id="beliefs"' in fragment
    text = (EX / "woof" / "contradiction.txt").read_text(encoding="utf-8")
    bad = client.post("/api/woof/solve", json={"evidence": text}).json()["contradiction"]
    html = client.post("/woof/result", data={"evidence": text}).text
    marked = {int(n) for n in re.findall(r'class="line marked"><span class="no">\s*(\d+)',
                                         html)}
    assert marked == {c["line"] for c in bad}


# ---- puzzles ------------------------------------------------------------------------------


def _pack_files(game: str) -> list[Path]:
    return sorted((ROOT / "puzzles" / game).glob("*/[0-9][0-9][0-9].txt"))


def test_puzzle_list_and_json_twins(client: TestClient) -> None:
    listed = client.get("/api/puzzles").json()["puzzles"]
    files = _pack_files("mutton") + _pack_files("woof")
    assert len(listed) == len(files) > 0
    for p in listed:
        twin = ROOT / "puzzles" / p["game"] / p["grade"] / f"{p['number']}.json"
        r = client.get(p["api"])
        assert r.status_code == 200
        assert r.content == twin.read_bytes()
    html = client.get("/puzzles").text
    assert html.count('href="/puzzles/') == len(files)


def _answer(path: Path) -> list[str]:
    sol = path.with_name(path.stem + ".solution.txt").read_text(encoding="utf-8")
    line = next(x for x in sol.splitlines() if x.startswith("Answer:"))
    value = line.split(":", 1)[1].strip()
    return [] if value == "no wolf" else value.split()


@pytest.mark.parametrize("game", ["mutton", "woof"])
def test_puzzle_check_right_and_wrong(client: TestClient, game: str) -> None:
    for path in _pack_files(game)[::7]:
        rel = "/".join(path.with_suffix("").parts[-3:])
        answer = _answer(path)
        r = client.post(f"/api/puzzles/{rel}/check", json={"answer": answer})
        assert r.status_code == 200
        verdict = r.json()
        assert verdict["correct"] is True
        steps = [x for x in path.with_name(path.stem + ".solution.txt").read_text(
            encoding="utf-8").splitlines() if re.match(r"\d+\. ", x)]
        assert verdict["solution"] == steps
        if game == "woof" and len(answer) == 1 and not answer[0].isdigit():
            wrong = ["sheep"] if answer != ["sheep"] else ["wolf"]
        elif answer:
            wrong = answer[:-1]
        else:
            wrong = ["1"] if game == "woof" else ["B"]
        assert client.post(f"/api/puzzles/{rel}/check",
                           json={"answer": wrong}).json()["correct"] is False


def test_puzzle_page_pick_check_solution(client: TestClient) -> None:
    path = ROOT / "puzzles" / "mutton" / "medium" / "003.txt"
    answer = _answer(path)
    shown = [a for a in answer if a != "A"]  # A is marked w: counted for the player
    page = client.get("/puzzles/mutton/medium/003").text
    assert page.count('name="pick"') == 26
    r = client.post("/puzzles/mutton/medium/003", data={"pick": shown})
    assert 'id="right"' in r.text
    assert r.text.count("<li>") >= 6
    r = client.post("/puzzles/mutton/medium/003", data={"pick": shown[:-1]})
    assert 'id="wrong"' in r.text and 'id="steps"' not in r.text
    r = client.post("/puzzles/mutton/medium/003", data={"show": "on"})
    assert 'id="steps"' in r.text and "A B X Z" in r.text
    r = client.post("/puzzles/mutton/medium/003", data={"pick": ["A", "ZZ"]})
    assert r.status_code == 400
    assert api_error(client, "/api/puzzles/mutton/medium/003/check",
                     {"answer": ["A", "ZZ"]}).startswith("answer: 'ZZ' is not one of A, B, C")
    assert api_error(client, "/api/puzzles/woof/easy/001/check",
                     {"answer": ["sheep", "wolf"]}) == "answer: pick exactly one character"
    assert api_error(client, "/api/puzzles/woof/easy/001/check", {"answer": "sheep"}) == \
        "answer: expected a list of strings"
    assert client.post("/api/puzzles/mutton/medium/999/check",
                       json={"answer": []}).status_code == 404
    assert client.get("/puzzles/mutton/medium/999").status_code == 404
    assert client.get("/api/puzzles/mutton/medium/999").status_code == 404
    assert client.get("/puzzles/../../etc/passwd").status_code == 404


@pytest.mark.parametrize("rel", ["mutton/easy/001", "woof/easy/001"])
def test_puzzle_verdict_is_the_cli_check(client: TestClient, rel: str,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    game = rel.split("/")[0]
    expected = cli_stdout([game, "puzzle", "check", f"puzzles/{rel}.txt", "--json"])
    r = client.get(f"/api/puzzles/{rel}/verdict")
    assert r.status_code == 200
    assert r.text == expected


# ---- Ulvtafl ------------------------------------------------------------------------------

TRAPPED = "WSS/.SS/..S.S../..S..../SS...../.../... w"


@pytest.mark.parametrize("body,args", [
    ({}, []),
    ({"setup": 13}, ["--setup", "13"]),
    ({"setup": 17, "wolf": ["c7"], "orthogonal": True},
     ["--setup", "17", "--wolf", "c7", "--orthogonal"]),
    ({"position": TRAPPED}, ["--position", TRAPPED]),
])
def test_ulvtafl_board_api_is_the_cli_json(client: TestClient, body: dict[str, Any],
                                           args: list[str]) -> None:
    expected = cli_stdout(["ulvtafl", "board", *args, "--json"])
    r = client.post("/api/ulvtafl/board", json=body)
    assert r.status_code == 200
    assert r.text == expected


def test_ulvtafl_move_api_is_the_board_of_the_new_position(client: TestClient) -> None:
    start = client.post("/api/ulvtafl/board", json={}).json()
    move = start["legal_moves"][0]
    r = client.post("/api/ulvtafl/move", json={"move": move})
    assert r.status_code == 200
    after = r.json()
    assert after["to_move"] == "sheep"
    assert r.text == cli_stdout(["ulvtafl", "board", "--position", after["position"],
                                 "--json"])
    # and the solver answers for the sheep
    r = client.post("/api/ulvtafl/move", json={"position": after["position"],
                                               "solver": "sheep", "think": 0.5})
    assert r.status_code == 200
    assert r.json()["to_move"] == "wolves"


@pytest.mark.parametrize("body,args", [
    ({"move": "d3-d4"}, ["d3-d4"]),
    ({"move": "z9-z8"}, ["z9-z8"]),
])
def test_ulvtafl_bad_move_is_400_with_the_rules_message(client: TestClient,
                                                        body: dict[str, Any],
                                                        args: list[str], tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    """An illegal or malformed move: the message `ulvtafl replay` prints for the same move
    in a record (the record file named after the field), but for the record's line number;
    the page shows it too."""
    message = api_error(client, "/api/ulvtafl/move", body)
    record = f"setup=20\n{args[0]}\n"
    cli = cli_error(["ulvtafl", "replay", "FILE"], tmp_path, "move", record, monkeypatch)
    assert cli.startswith("move, line 2, column 1: ")
    assert message == cli.replace("line 2, ", "", 1)
    r = client.post("/ulvtafl", data={"action": "move", "move": args[0],
                                      "position": client.post("/api/ulvtafl/board",
                                                              json={}).json()["position"]})
    assert r.status_code == 400 and message in unescape(r.text)


def test_ulvtafl_bad_position_is_400_with_the_cli_message(client: TestClient) -> None:
    r = invoke(["ulvtafl", "board", "--position", "SSS/xx w", "--json"])
    assert r.exit_code == 2
    expected = r.stderr.strip().removeprefix("fleece: error: --position")
    message = api_error(client, "/api/ulvtafl/board", {"position": "SSS/xx w"})
    assert message == "position" + expected


@pytest.mark.parametrize("body,args,cli", [
    ({"position": "SSS/xx w"}, ["--position", "SSS/xx w"], "--position, column 1: "),
    ({"setup": "14"}, ["--setup", "14"],
     "fleece ulvtafl solve: --setup: '14' is not one of 13, 15, 17, 20"),
    ({"max_nodes": 0}, ["--max-nodes", "0"],
     "fleece ulvtafl solve: --max-nodes: 0 is out of range (1..1000000000000)"),
    ({"wolf": ["z9"]}, ["--wolf", "z9"], "--wolf: 'z9' is not a point of the board (U8)"),
])
def test_ulvtafl_solve_bad_input_is_400_with_the_cli_message(client: TestClient,
                                                              body: dict[str, Any],
                                                              args: list[str],
                                                              cli: str) -> None:
    """`ulvtafl solve`'s refusals, word for word: the option (`--max-nodes`) is the JSON
    field (`max_nodes`) here."""
    r = invoke(["ulvtafl", "solve", *args, "--json"])
    assert r.exit_code == 2 and r.stdout == ""
    line = r.stderr.strip().removeprefix("fleece: error: ")
    assert line.startswith(cli)
    assert api_error(client, "/api/ulvtafl/solve", body) == web_message(line)


def test_ulvtafl_api_refuses_bad_fields(client: TestClient) -> None:
    """Fields the command line cannot even express: both a position and a setup, a wrong
    type, an unknown field."""
    assert api_error(client, "/api/ulvtafl/solve", {"position": TRAPPED, "setup": 13}) == \
        "position: give a position or a setup, not both"
    assert api_error(client, "/api/ulvtafl/board", {"setup": "13"}) == \
        "setup: '13' is not one of 13, 15, 17, 20"
    assert api_error(client, "/api/ulvtafl/board", {"setup": 14}) == \
        "setup: 14 is not one of 13, 15, 17, 20"
    assert api_error(client, "/api/ulvtafl/solve", {"retro_limit": "x"}) == \
        "retro_limit: expected a whole number, got 'x'"
    assert api_error(client, "/api/ulvtafl/board", {"orthogonal": "yes"}) == \
        "orthogonal: expected true or false, got 'yes'"
    assert api_error(client, "/api/ulvtafl/move", {"mvoe": "d3-d4"}).startswith(
        "unknown field 'mvoe'")


def _untimed(text: str) -> dict[str, Any]:
    """A solve's JSON without its one timing field."""
    data: dict[str, Any] = json.loads(text)
    assert isinstance(data.pop("seconds"), float)
    return data


def test_ulvtafl_solve_api_is_the_cli_json(client: TestClient) -> None:
    """The trapped wolf (examples/ulvtafl/trapped.txt): the sheep win in 2 plies; the answer
    is the command's (given the timeout the app gives a solve: 40% of the 60 s budget) but
    for the seconds it took."""
    r = client.post("/api/ulvtafl/solve", json={"position": TRAPPED})
    assert r.status_code == 200
    data = r.json()
    assert data["value"] == "sheep"
    assert data["best_move"] == "c7-c6"
    expected = cli_stdout(["ulvtafl", "solve", "--position", TRAPPED, "--timeout", "24",
                           "--json"])
    assert _untimed(r.text) == _untimed(expected)
    assert list(json.loads(r.text)) == list(json.loads(expected))


def test_ulvtafl_fortress_api_is_the_cli_json(client: TestClient) -> None:
    """The 20-sheep start: the sheep never lose (found, with what the rules walked); the
    answer is the command's with the app's caps (200,000 positions, 40% of the 60 s
    budget) but for the seconds it took."""
    r = client.post("/api/ulvtafl/fortress", json={"setup": 20})
    assert r.status_code == 200
    data = r.json()
    assert (data["outcome"], data["strategy_positions"], data["checked_positions"]) == (
        "found", 4_839, 7_743)
    expected = cli_stdout(["ulvtafl", "fortress", "--setup", "20", "--max-positions",
                           "200000", "--seconds", "24", "--json"])
    assert _untimed(r.text) == _untimed(expected)
    assert list(json.loads(r.text)) == list(json.loads(expected))
    none = client.post("/api/ulvtafl/fortress", json={"forward_steps": 1})
    assert none.status_code == 200 and none.json()["outcome"] == "none"


@pytest.mark.parametrize(("body", "message"), [
    ({"max_positions": 0}, "max_positions: "),
    ({"max_positions": 10**7}, "max_positions: "),
    ({"forward_steps": -1}, "forward_steps: "),
    ({"side": "geese"}, "side: "),
    ({"position": "W.W/... w"}, "position, column 1: a board has 7 ranks"),
])
def test_ulvtafl_fortress_bad_input_is_400_naming_the_field(client: TestClient,
                                                             body: dict[str, Any],
                                                             message: str) -> None:
    assert api_error(client, "/api/ulvtafl/fortress", body).startswith(message)


def test_ulvtafl_pages(client: TestClient) -> None:
    """The board as SVG with all 33 points, the legal moves for the script, a move by form,
    the solver's reply, and a solve with the best move drawn as an arrow."""
    html = client.get("/ulvtafl").text
    assert html.count('data-point="') == 33
    moves = json.loads(re.search(r"data-moves='([^']*)'", html).group(1))  # type: ignore[union-attr]
    assert len(moves) == 6 and all(len(m["path"]) == 2 for m in moves)
    position = re.search(r'name="position" value="([^"]*)"', html).group(1)  # type: ignore[union-attr]
    r = client.post("/ulvtafl", data={"action": "move", "position": position,
                                      "move": moves[0]["text"], "solver": "sheep",
                                      "think": "0.5"})
    assert r.status_code == 200
    assert f"Played: {moves[0]['text']}, " in r.text and "the solver played" in r.text
    assert 'id="to-move">Wolves to move' in r.text
    r = client.post("/ulvtafl", data={"action": "solve", "position": TRAPPED})
    assert 'id="best-arrow"' in r.text and 'id="best-move">c7-c6' in r.text
    r = client.post("/ulvtafl", data={"action": "move", "position": TRAPPED, "move": "c7-b7"})
    assert r.status_code == 400 and 'class="error"' in r.text
    assert r.text.count('data-point="') == 33  # the board is still shown
    r = client.post("/ulvtafl", data={"action": "new", "setup": "15", "solver": "wolves",
                                      "think": "0.3"})
    assert r.status_code == 200 and 'id="to-move">Sheep to move' in r.text


# ---- Ulvtafl puzzles ----------------------------------------------------------------------

ULV_PUZZLES = sorted((ROOT / "puzzles" / "ulvtafl").glob("*/[0-9][0-9][0-9].txt"))


def _ulv(rel: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((ROOT / "puzzles" / "ulvtafl" / f"{rel}.json")
                                      .read_text(encoding="utf-8"))
    return data


def test_ulvtafl_puzzle_list_and_twins(client: TestClient) -> None:
    """Every committed puzzle of the four grades is listed (claim, side, plies from its file)
    and its JSON twin served byte for byte; the puzzles page links each one."""
    listed = client.get("/api/ulvtafl/puzzles").json()["puzzles"]
    assert len(listed) == len(ULV_PUZZLES) >= 40
    assert {p["grade"] for p in listed} == {"easy", "medium", "hard", "expert"}
    for p in listed:
        twin = ROOT / "puzzles" / "ulvtafl" / p["grade"] / f"{p['number']}.json"
        data = json.loads(twin.read_text(encoding="utf-8"))
        assert (p["claim"], p["side"], p["plies"]) == (data["claim"], data["side"],
                                                      data["plies"])
        assert client.get(p["api"]).content == twin.read_bytes()
    html = client.get("/puzzles").text
    assert html.count('href="/ulvtafl/puzzles/') == len(ULV_PUZZLES)
    assert client.get("/api/ulvtafl/puzzles/hard/999").status_code == 404
    assert api_error(client, "/api/ulvtafl/puzzles/hard/004/hint", {"moves": "g5-f5"}) == \
        "moves: expected a list of strings"


@pytest.mark.parametrize("rel", ["easy/001", "hard/004", "expert/002"])
def test_ulvtafl_puzzle_api_plays_the_solution_against_the_defence(client: TestClient,
                                                                     rel: str) -> None:
    """Playing the solution's moves for the side to move: each keeps the fastest win, the
    defence answers with the solution's own replies (the longest resistance), the last move
    wins; the hint before each move names that move. Each answer is the library's
    (fleece.api.ulvtafl) for the same request."""
    from fleece.api import ulvtafl

    data = _ulv(rel)
    text = (ROOT / "puzzles" / "ulvtafl" / f"{rel}.txt").read_text(encoding="utf-8")
    line = data["solution"]
    moves: list[str] = []
    for i in range(0, len(line), 2):
        r = client.post(f"/api/ulvtafl/puzzles/{rel}/hint", json={"moves": moves})
        assert r.status_code == 200
        hint = r.json()
        assert hint["winner"] == data["side"] and hint["plies"] == data["plies"] - i
        assert hint["hint"]["move"] == line[i]
        assert hint == ulvtafl.puzzle_hint(ulvtafl.PuzzlePlayRequest(
            puzzle=text, moves=tuple(moves))).to_json()
        r = client.post(f"/api/ulvtafl/puzzles/{rel}/play", json={"moves": moves,
                                                                  "move": line[i]})
        assert r.status_code == 200
        step = r.json()
        assert step == ulvtafl.play_puzzle(ulvtafl.PuzzlePlayRequest(
            puzzle=text, moves=tuple(moves), move=line[i])).to_json()
        assert step["ok"] and step["still_wins"] and step["fastest"]
        moves = step["moves"]
        assert moves == line[:i + 2]
    assert step["result"] == data["side"] and step["reply"] is None


def test_ulvtafl_puzzle_api_says_a_wrong_move_throws_the_win_away(client: TestClient) -> None:
    """hard/004 (README): the natural d5-c5 loses; the step says so and the hint then has
    nothing to offer (the wolves win); an illegal move is not played."""
    r = client.post("/api/ulvtafl/puzzles/hard/004/play", json={"move": "d5-c5"})
    step = r.json()
    assert step["ok"] and step["still_wins"] is False
    assert "throws the win away" in step["message"]
    after = client.post("/api/ulvtafl/puzzles/hard/004/hint",
                        json={"moves": step["moves"]}).json()
    assert after["winner"] == "wolves" and after["hint"] is None
    bad = client.post("/api/ulvtafl/puzzles/hard/004/play", json={"move": "d5-d4"}).json()
    assert bad["ok"] is False and bad["moves"] == []
    assert api_error(client, "/api/ulvtafl/puzzles/hard/004/play", {"moves": []}) == \
        "move: missing"
    assert api_error(client, "/api/ulvtafl/puzzles/hard/004/hint", {"moves": ["zz"]}) \
        .startswith("moves: move 1 ('zz'): ")


def test_ulvtafl_puzzle_verdict_is_the_cli_check(client: TestClient,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    expected = cli_stdout(["ulvtafl", "puzzle", "check", "puzzles/ulvtafl/hard/004.txt",
                           "--json"])
    r = client.get("/api/ulvtafl/puzzles/hard/004/verdict")
    assert r.status_code == 200
    ours, theirs = r.json(), json.loads(expected)
    for verdict in (*ours, *theirs):  # the one timing field
        assert isinstance(verdict.pop("seconds"), float)
    assert ours == theirs
    assert ours[0]["sound"] is True and ours[0]["winning_first_moves"] == ["g5-f5"]


def test_ulvtafl_puzzle_page_move_take_back_and_hints(client: TestClient) -> None:
    """The page: the claim; the key move g5-f5 and the wolves' answer; a losing move said to
    throw the win away, then taken back; three hints from the threat to the move."""
    page = client.get("/ulvtafl/puzzles/hard/004").text
    assert "Sheep to move and win in 7 plies" in page
    assert page.count('data-point="') == 33
    r = client.post("/ulvtafl/puzzles/hard/004", data={"moves": "", "move": "g5-f5",
                                                      "action": "move"})
    assert r.status_code == 200
    assert "g5-f5, reply c4-b4: good: the sheep still win, 5 plies to go." in r.text
    assert 'name="moves" value="g5-f5 c4-b4"' in r.text
    r = client.post("/ulvtafl/puzzles/hard/004", data={"moves": "", "move": "d5-c5"})
    assert "that throws the win away" in r.text and 'id="take-back"' in r.text
    r = client.post("/ulvtafl/puzzles/hard/004", data={"moves": "d5-c5 c4-b4",
                                                      "action": "back"})
    assert 'name="moves" value=""' in r.text and "You still win: 7 plies to go" in r.text
    levels = []
    for level in range(3):
        r = client.post("/ulvtafl/puzzles/hard/004", data={"moves": "", "action": "hint",
                                                          "level": str(level)})
        levels.append(unescape(r.text))
    assert "Hint:</strong> no direct threat: a quiet move" in levels[0]
    assert "g5" not in levels[0].split('id="hint"')[1].split("</div>")[0]
    assert "Move the piece on <strong>g5</strong>" in levels[1]
    assert 'id="hint-move">g5-f5' in levels[2] and 'id="best-arrow"' in levels[2]
    r = client.post("/ulvtafl/puzzles/hard/004", data={"moves": "", "move": "a1-a2"})
    assert r.status_code == 400 and "a1 is not a point of the board" in unescape(r.text)
    assert client.get("/ulvtafl/puzzles/hard/999").status_code == 404


# ---- cards --------------------------------------------------------------------------------

WAR_CASES = [
    ({"deck": "pairs:4"}, ["--deck", "pairs:4"]),
    ({"deck": "pairs:3", "order": "random"}, ["--deck", "pairs:3", "--order", "random"]),
    ({"deck": "wolf", "samples": 300, "seed": 5, "runout": "last-card"},
     ["--deck", "wolf", "--samples", "300", "--seed", "5", "--runout", "last-card"]),
]


@pytest.mark.parametrize("body,args", WAR_CASES)
def test_war_api_is_the_cli_json(client: TestClient, body: dict[str, Any],
                                 args: list[str]) -> None:
    expected = cli_stdout(["cards", "war", "analyse", *args, "--json"])
    r = client.post("/api/cards/war/analyse", json=body)
    assert r.status_code == 200
    assert r.text == expected


@pytest.mark.parametrize("body,args", [
    ({"deck": "pairs:6"}, ["--deck", "pairs:6"]),
    ({"deck": "pairs:4", "players": 2}, ["--deck", "pairs:4", "--players", "2"]),
])
def test_concentration_api_is_the_cli_json(client: TestClient, body: dict[str, Any],
                                           args: list[str]) -> None:
    expected = cli_stdout(["cards", "concentration", "solve", *args, "--json"])
    r = client.post("/api/cards/concentration/solve", json=body)
    assert r.status_code == 200
    assert r.text == expected


@pytest.mark.parametrize("path,body,args", [
    ("/api/cards/war/analyse", {"deck": "pairs:0"}, ["war", "analyse", "--deck", "pairs:0"]),
    ("/api/cards/war/analyse", {"deck": "foo*x"}, ["war", "analyse", "--deck", "foo*x"]),
    ("/api/cards/war/analyse", {"deck": "-x"}, ["war", "analyse", "--deck=-x"]),
    ("/api/cards/concentration/solve", {"deck": "pairs:40", "max_states": 10},
     ["concentration", "solve", "--deck", "pairs:40", "--max-states", "10"]),
    ("/api/cards/concentration/solve", {"deck": "1*3"},
     ["concentration", "solve", "--deck", "1*3"]),
])
def test_cards_bad_input_is_400_with_the_cli_message(client: TestClient, path: str,
                                                     body: dict[str, Any],
                                                     args: list[str]) -> None:
    r = invoke(["cards", *args, "--json"])
    assert r.exit_code == 2, r.output
    assert api_error(client, path, body) == web_message(
        r.stderr.strip().removeprefix("fleece: error: "))


def test_cards_pages(client: TestClient) -> None:
    """War: the summary, the JSON and the plot of game lengths (bars summing to the games
    that ended); Concentration: the exact expected turns."""
    r = client.post("/cards/war", data={"deck": "pairs:5", "order": "winner-first",
                                        "runout": "lose", "samples": "", "seed": "1"})
    assert r.status_code == 200
    assert 'id="war-result"' in r.text and 'id="lengths"' in r.text
    bars = [int(n) for n in re.findall(r"battles: (\d+) games</title>", r.text)]
    ended = int(re.search(r"\); (\d+) ended", r.text).group(1))  # type: ignore[union-attr]
    assert sum(bars) == ended > 0
    r = client.post("/cards/concentration", data={"deck": "pairs:6", "players": "1"})
    assert r.status_code == 200 and "<strong>31748/3465</strong>" in r.text
    r = client.post("/cards/war", data={"deck": "wolf", "samples": "", "order": "sideways"})
    assert r.status_code == 400
    assert "order: 'sideways' is not one of" in unescape(r.text)


# ---- the whole app ------------------------------------------------------------------------

PAGES = ["/", "/mutton", "/mutton?example=mutton", "/woof", "/woof?example=woof", "/ulvtafl",
         "/cards", "/puzzles", "/puzzles/mutton/easy/001", "/puzzles/woof/hard/001", "/api"]


def test_every_page_has_the_security_headers(client: TestClient) -> None:
    for path in [*PAGES, "/static/app.js", "/static/style.css", "/nope", "/api/nope"]:
        r = client.get(path)
        assert r.status_code == (404 if "nope" in path else 200), path
        assert r.headers["content-security-policy"] == CSP
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["x-frame-options"] == "DENY"
    assert "'unsafe-inline'" not in CSP and "script-src 'self'" in CSP
    for path in PAGES:
        html = client.get(path).text
        assert "<script>" not in html and " style=" not in html and " on" + "click" not in html
    assert client.get("/api/nope").json() == {"error": "no such page"}
    assert client.get("/api/mutton/solve").status_code == 405
    assert client.get("/static/nope.js").status_code == 404
    # error answers too: 400, 405, 413, and a page's 400
    answers = [client.post("/api/mutton/solve", content=b"{"),
               client.get("/api/mutton/solve"),
               client.post("/api/woof/solve", content=b"{" + b" " * (MAX_BODY + 1) + b"}"),
               client.post("/mutton", data={"chart": "Sheep : A\nRound 1: Q\n"})]
    assert [r.status_code for r in answers] == [400, 405, 413, 400]
    for r in answers:
        assert r.headers["content-security-policy"] == CSP
        assert r.headers["x-content-type-options"] == "nosniff"


# ---- Mutton against a robot ------------------------------------------------------------------

SMALL = "-size=3 -num_sheep=10 -num_wolves=2"


def _person_move(state: Any, rng: Any) -> Any:
    """A legal move for the person, chosen from the rules model's list (no robot code): the
    wolves at random, else a random move among the first 200 listed (berserk volleys left
    out, so that games last a few turns)."""
    from itertools import islice

    from fleece.rules.mutton.game import Phase
    from fleece.rules.mutton.moves import Berserk, ChooseWolves

    if state.phase is Phase.CHOOSE:
        return ChooseWolves("".join(sorted(rng.sample(state.letters,
                                                      state.rules.num_wolves))))
    moves = [m for m in islice(state.legal_moves(), 200) if not isinstance(m, Berserk)]
    return rng.choice(moves)


@pytest.mark.parametrize("person,bot", [("farmer", "v2"), ("wolf", "random"),
                                        ("wolf", "fleece")])
def test_mutton_play_api_replies_are_the_robots(client: TestClient, person: str,
                                                bot: str) -> None:
    """A game started with a seed and driven move by move through the JSON API gets, at
    every turn, the replies that fleece.solver.mutton.bots.play gives when called directly
    with the same seed and moves (the request carries the whole game: no session); the
    answer's `moves` are the game's history after the set-up, and the robot's wolves are
    never among them when the person plays the Farmer."""
    import random

    from fleece.rules.mutton.moves import Side, format_move
    from fleece.rules.mutton.options import parse_options
    from fleece.solver.mutton.bots import play

    side = Side.FARMER if person == "farmer" else Side.WOLF
    rules = parse_options(SMALL)
    seed = 2024
    game = {"person": person, "bot": bot, "seed": seed, "rules": SMALL, "layout": "random"}
    r = client.post("/api/mutton/play/start", json=game)
    assert r.status_code == 200, r.text
    answer = r.json()
    direct = play.start(rules, side, bot, seed, layout="random")
    assert answer["replies"] == [format_move(m) for m in direct.replies]
    setup = len(play.setup(rules, side, seed, "random").history)
    rng = random.Random(5)
    turns = 0
    while not direct.state.over:
        assert answer["your_turn"] and answer["to_move"] == person
        move = _person_move(direct.state, rng)
        r = client.post("/api/mutton/play/move", json={**game, "moves": answer["moves"],
                                                       "move": format_move(move)})
        assert r.status_code == 200, r.text
        answer = r.json()
        direct = play.step(direct.state, move, bot, seed)
        assert answer["played"] == format_move(move)
        assert answer["replies"] == [format_move(m) for m in direct.replies]
        assert answer["moves"] == [format_move(m) for m in direct.state.history[setup:]]
        assert (answer["over"], answer["score"]) == (direct.state.over, direct.state.score)
        turns += 1
    assert turns >= 2 and answer["result"].startswith("game over: the Wolf scores ")
    if person == "farmer":
        assert not any(m.startswith("wolves=") for m in answer["moves"])


def test_mutton_play_api_overlay_is_the_solvers(client: TestClient) -> None:
    """The overlay is what the Farmer knows (the solver's count and exact probabilities on
    the public facts) and, at the Farmer's turn, the Farmer robot's decision; switched off,
    it is null."""
    from fleece.rules.mutton.moves import Side
    from fleece.rules.mutton.options import MuttonOptions
    from fleece.solver.mutton.bots import play

    game = {"person": "farmer", "bot": "v2", "seed": 7}
    answer = client.post("/api/mutton/play/start", json=game).json()
    state = play.start(MuttonOptions(), Side.FARMER, "v2", 7).state
    expected = play.overlay(state).to_json()
    assert answer["overlay"] == expected
    assert answer["overlay"]["decision"]["line"].startswith(("shoot ", "wait"))
    # Z was eaten and its two neighbours V and Y ran (`Z:V-d2,Y-c3`): the 4 wolves are among
    # the other 25 animals, and one of them is V or Y, the only animals next to Z (M8)
    assert answer["moves"] == ["Z:V-d2,Y-c3"]
    assert answer["overlay"]["count"] == math.comb(25, 4) - math.comb(23, 4) == 3795
    off = client.post("/api/mutton/play/start", json={**game, "overlay": False}).json()
    assert off["overlay"] is None and off["moves"] == answer["moves"]


def test_mutton_play_api_refuses_bad_input_in_one_line(client: TestClient) -> None:
    """An illegal or unreadable move is a 400 naming the move; so are a move out of turn, a
    bad game so far, an unknown robot, a bad seed or rule set: one line each, never 500."""
    game = {"person": "farmer", "bot": "random", "seed": 3, "rules": SMALL,
            "layout": "random"}
    start = client.post("/api/mutton/play/start", json=game).json()
    dead = next(a["letter"] for a in start["animals"] if a["fate"] != "alive")
    cases = [
        ("/move", {**game, "moves": start["moves"], "move": dead},
         f"move: illegal move '{dead}': {dead} is not alive, so it cannot be shot"),
        ("/move", {**game, "moves": start["moves"], "move": "Q"},
         "move: illegal move 'Q': there is no animal 'Q' (animals are A..J)"),
        ("/move", {**game, "moves": start["moves"], "move": "A:zz"},
         "move: cannot read 'A:zz': 'zz' is not a runner move"),
        ("/move", {**game, "moves": start["moves"][:-1], "move": "A"},
         "move: 'A': it is the robot's turn after these moves"),
        ("/move", {**game, "moves": ["Q", "A"], "move": "A"}, "moves: item 1 'Q': "),
        ("/move", {**game, "moves": start["moves"]}, "move: missing"),
        ("/start", {"bot": "alphazero"}, "bot: 'alphazero' is not one of fleece, random, v2"),
        ("/start", {"seed": -1}, "seed: -1 is out of range (0..999999999999999999)"),
        ("/start", {"seed": True}, "seed: expected a whole number, got true"),
        ("/start", {"rules": "-size=99"}, "rules: size must be in 2..8, got 99"),
        ("/start", {"rules": "-num_wolves=9"}, "rules: the robots track every wolf set"),
        ("/start", {"person": "shepherd"}, "person: 'shepherd' is not one of farmer, wolf"),
        ("/move", {"move": "A"}, "seed: missing"),
    ]
    for path, body, message in cases:
        r = client.post("/api/mutton/play" + path, json=body)
        assert r.status_code == 400, (body, r.text)
        error = r.json()["error"]
        assert error.startswith(message) and "\n" not in error, (body, error)


def test_mutton_play_record_replays_to_the_same_game(client: TestClient) -> None:
    """The record, from the JSON endpoint and as the page's download, is the text `fleece
    mutton replay` reads: replayed by the record parser it reaches the game's final state,
    and the replay API reports the game's score."""
    from fleece.api import mutton
    from fleece.rules.mutton.moves import Side
    from fleece.rules.mutton.options import parse_options
    from fleece.rules.mutton.record import replay_text
    from fleece.solver.mutton.bots import play

    game = {"person": "wolf", "bot": "v2", "seed": 11, "rules": SMALL, "layout": "random"}
    answer = client.post("/api/mutton/play/start", json=game).json()
    for turn in range(3):
        if answer["over"]:
            break
        move = "wolves=AD"
        if turn:  # eat the first animal the Wolf may eat, its runners to the first free cells
            kill = answer["choices"]["targets"][0]
            move = kill["animal"] + (":" if kill["runners"] else "") + ",".join(
                f"{a}-{c}" for a, c in zip(kill["runners"], kill["free"], strict=False))
        r = client.post("/api/mutton/play/move", json={**game, "moves": answer["moves"],
                                                       "move": move})
        assert r.status_code == 200, r.text
        answer = r.json()
    rules = parse_options(SMALL)
    state = play.setup(rules, Side.WOLF, 11, "random")
    for text in answer["moves"]:
        state = state.play(mutton_move(state, text))
    body = {**game, "moves": answer["moves"]}
    record = client.post("/api/mutton/play/record", json=body).json()
    assert record["complete"] is state.over
    assert replay_text(record["record"]).current == state
    page = client.post("/mutton/play/record", data={**game, "seed": "11",
                                                    "moves": " ".join(answer["moves"])})
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/plain")
    assert page.headers["content-disposition"] == \
        'attachment; filename="mutton-wolf-v2-11.txt"'
    assert page.text == record["record"]
    replayed = mutton.replay(mutton.ReplayRequest(record=page.text)).to_json()
    assert replayed["games"][0]["score"] == state.score == answer["score"]
    r = client.post("/api/mutton/play/record", json={**game, "moves": ["wolves=AD", "Z"]})
    assert r.status_code == 400 and r.json()["error"].startswith("moves: item 2 'Z': ")


def mutton_move(state: Any, text: str) -> Any:
    """A move's text read for the side to move (None in the set-up)."""
    from fleece.rules.mutton.game import Phase
    from fleece.rules.mutton.moves import parse_move

    side = None if state.phase in (Phase.PLACE, Phase.CHOOSE) else state.to_move
    return parse_move(text, state.board, side)


def test_mutton_play_page_start_move_overlay(client: TestClient) -> None:
    """The page: the start form lists the robots; a start shows the seed and the board; a
    move shows the robot's reply; the overlay button hides and shows the solver's overlay;
    an illegal move is the error next to the game as it stood (400); a bad seed in the
    start form is the error next to the form."""
    from fleece.solver.mutton.bots.registry import BOTS
    from fleece.web.routers.mutton_play import Robot

    assert typing_args(Robot) == BOTS == tuple(mutton_api.play_robots())
    page = client.get("/mutton/play")
    assert page.status_code == 200 and 'id="start-form"' in page.text
    assert all(f'<option value="{b}"' in page.text for b in BOTS)
    assert '<a href="/mutton/play" aria-current="page">Play Mutton</a>' in page.text
    started = client.post("/mutton/play", data={"action": "start", "person": "farmer",
                                                "bot": "v2", "seed": "7"})
    assert started.status_code == 200
    assert '<strong id="seed-shown">7</strong>' in started.text
    assert 'id="overlay-table"' in started.text and 'id="decision"' in started.text
    moves = re.search(r'name="moves" value="([^"]*)"', started.text).group(1)
    assert moves == "Z:V-d2,Y-c3"  # the v2 Wolf's first kill with seed 7 (see the API test)
    game = {"person": "farmer", "bot": "v2", "seed": "7", "moves": moves, "overlay": "on"}
    moved = client.post("/mutton/play", data={**game, "action": "move", "move": "V"})
    assert moved.status_code == 200
    assert '<code id="played">V</code>' in moved.text and 'id="replies"' in moved.text
    hidden = client.post("/mutton/play", data={**game, "action": "overlay"})
    assert 'id="overlay-table"' not in hidden.text and "Show the solver" in hidden.text
    assert 'name="overlay" value="off"' in hidden.text
    shown = client.post("/mutton/play", data={**game, "overlay": "off", "action": "overlay"})
    assert 'id="overlay-table"' in shown.text
    bad = client.post("/mutton/play", data={**game, "action": "move", "move": "Z"})
    assert bad.status_code == 400
    assert "move: illegal move &#39;Z&#39;: Z is not alive" in bad.text
    assert 'id="play-board"' in bad.text
    refused = client.post("/mutton/play", data={"action": "start", "seed": "seven"})
    assert refused.status_code == 400 and 'id="start-form"' in refused.text
    assert "seed: " in unescape(refused.text)


def test_mutton_play_api_fields_are_the_library_requests() -> None:
    """The JSON bodies' fields are the library requests' fields, by the same names."""
    import dataclasses

    from fleece.web.routers.mutton_play import GameBody, MoveBody, StartBody

    def names(request: Any) -> set[str]:
        return {f.name for f in dataclasses.fields(request)}

    assert set(StartBody.model_fields) == names(mutton_api.PlayStartRequest)
    assert set(MoveBody.model_fields) == names(mutton_api.PlayMoveRequest)
    assert set(GameBody.model_fields) == names(mutton_api.PlayMoveRequest) - {"move"}


def typing_args(annotation: Any) -> tuple[Any, ...]:
    """The values of a Literal."""
    import typing

    return typing.get_args(annotation)


# Every route of the app and the tests above that drive it with good and bad input: a new
# route fails test_every_route_is_tested until it is added here with its tests.
TESTED_ROUTES = {
    ("GET", "/"): "test_every_page_has_the_security_headers",
    ("GET", "/static/{name}"): "test_every_page_has_the_security_headers",
    ("GET", "/api"): "test_api_index_lists_every_json_endpoint",
    ("GET", "/docs"): "test_docs_page_documents_every_endpoint_in_full",
    ("GET", "/openapi.json"): "test_docs_page_documents_every_endpoint_in_full",
    ("GET", "/mutton"): "test_every_page_has_the_security_headers",
    ("POST", "/mutton"): "test_mutton_page_*",
    ("POST", "/api/mutton/solve"): "test_mutton_api_is_the_cli_json, test_mutton_bad_*",
    ("GET", "/puzzles"): "test_puzzle_list_and_json_twins",
    ("GET", "/puzzles/{game}/{grade}/{number}"): "test_puzzle_page_pick_check_solution",
    ("POST", "/puzzles/{game}/{grade}/{number}"): "test_puzzle_page_pick_check_solution",
    ("GET", "/api/puzzles"): "test_puzzle_list_and_json_twins",
    ("GET", "/api/puzzles/{game}/{grade}/{number}"): "test_puzzle_list_and_json_twins",
    ("POST", "/api/puzzles/{game}/{grade}/{number}/check"): "test_puzzle_check_right_and_wrong",
    ("GET", "/api/puzzles/{game}/{grade}/{number}/verdict"): "test_puzzle_verdict_is_the_cli_check",
    ("GET", "/woof"): "test_every_page_has_the_security_headers",
    ("POST", "/woof"): "test_woof_page_and_fragment",
    ("POST", "/woof/result"): "test_woof_page_and_fragment",
    ("POST", "/api/woof/solve"): "test_woof_api_is_the_cli_json, test_woof_bad_input_*",
    ("GET", "/ulvtafl"): "test_ulvtafl_pages",
    ("POST", "/ulvtafl"): "test_ulvtafl_pages, test_ulvtafl_bad_move_*",
    ("POST", "/api/ulvtafl/board"): "test_ulvtafl_board_api_is_the_cli_json",
    ("POST", "/api/ulvtafl/move"): "test_ulvtafl_move_api_*, test_ulvtafl_bad_move_*",
    ("POST", "/api/ulvtafl/solve"): "test_ulvtafl_solve_api_*, test_ulvtafl_solve_bad_*",
    ("POST", "/api/ulvtafl/fortress"): "test_ulvtafl_fortress_api_*, test_ulvtafl_fortress_bad_*",
    ("GET", "/ulvtafl/puzzles/{grade}/{number}"): "test_ulvtafl_puzzle_page_*",
    ("POST", "/ulvtafl/puzzles/{grade}/{number}"): "test_ulvtafl_puzzle_page_*",
    ("GET", "/api/ulvtafl/puzzles"): "test_ulvtafl_puzzle_list_and_twins",
    ("GET", "/api/ulvtafl/puzzles/{grade}/{number}"): "test_ulvtafl_puzzle_list_and_twins",
    ("POST", "/api/ulvtafl/puzzles/{grade}/{number}/play"): "test_ulvtafl_puzzle_api_*",
    ("POST", "/api/ulvtafl/puzzles/{grade}/{number}/hint"): "test_ulvtafl_puzzle_api_*",
    ("GET", "/api/ulvtafl/puzzles/{grade}/{number}/verdict"):
        "test_ulvtafl_puzzle_verdict_is_the_cli_check",
    ("GET", "/cards"): "test_every_page_has_the_security_headers",
    ("POST", "/cards/war"): "test_cards_pages",
    ("POST", "/cards/concentration"): "test_cards_pages",
    ("POST", "/api/cards/war/analyse"): "test_war_api_is_the_cli_json, test_cards_bad_*",
    ("POST", "/api/cards/concentration/solve"): "test_concentration_api_*, test_cards_bad_*",
    ("GET", "/mutton/play"): "test_mutton_play_page_*",
    ("POST", "/mutton/play"): "test_mutton_play_page_*",
    ("POST", "/mutton/play/record"): "test_mutton_play_record_*",
    ("POST", "/api/mutton/play/start"): "test_mutton_play_api_*",
    ("POST", "/api/mutton/play/move"): "test_mutton_play_api_*",
    ("POST", "/api/mutton/play/record"): "test_mutton_play_record_*",
}


def app_routes(app: Any) -> set[tuple[str, str]]:
    """(method, path) of every route: the app's own and each game router's (FastAPI keeps
    included routers as their own route lists)."""
    from starlette.routing import Route

    from fleece.web.routers import ROUTERS

    found = [r for r in app.routes if isinstance(r, Route)]
    for module in ROUTERS:
        found += [r for r in (*module.api.routes, *module.pages.routes) if isinstance(r, Route)]
    return {(method, r.path) for r in found for method in (r.methods or ()) if method != "HEAD"}


def test_every_route_is_tested(client: TestClient) -> None:
    """The app's routes are exactly the ones listed in TESTED_ROUTES, and every test named
    there exists in this module; every route answers (none is shadowed by another)."""
    routes = app_routes(client.app)
    assert routes == set(TESTED_ROUTES)
    names = [n for n in globals() if n.startswith("test_")]
    for tests in TESTED_ROUTES.values():
        for pattern in tests.split(", "):
            stem = pattern.rstrip("*")
            assert any(n == pattern or (pattern.endswith("*") and n.startswith(stem))
                       for n in names), pattern


def test_api_index_lists_every_json_endpoint(client: TestClient) -> None:
    """`GET /api` lists exactly the app's JSON routes, each with its whole docstring."""
    listed = client.get("/api").json()
    endpoints = {(e["method"], e["path"]) for e in listed["endpoints"]}
    assert endpoints == {r for r in app_routes(client.app) if r[1].startswith("/api")}
    solve = next(e for e in listed["endpoints"] if e["path"] == "/api/cards/war/analyse")
    assert solve["description"].endswith(" 95% intervals; `method` and `reason` say which "
                                         "ran and why. What `fleece cards war analyse "
                                         "--json` prints.")
    assert (listed["openapi"], listed["docs"]) == ("/openapi.json", "/docs")


def test_docs_page_documents_every_endpoint_in_full(client: TestClient) -> None:
    """The navigation's API link is the documentation page: every endpoint of the OpenAPI
    schema with its whole description (not cut to a line), every body field with its limits,
    rendered without any script (it works under the app's CSP) and reachable from every
    page."""
    from fleece.web.routers.mutton import SolveBody

    schema = client.get("/openapi.json").json()
    paths = {(m.upper(), p) for p, item in schema["paths"].items() for m in item}
    assert paths == {r for r in app_routes(client.app) if r[1].startswith("/api")}
    page = client.get("/docs")
    assert page.status_code == 200 and page.headers["content-security-policy"] == CSP
    html = unescape(page.text)
    assert "<script>" not in html and 'href="/docs" aria-current="page">API' in html
    text = " ".join(re.sub(r"<[^>]+>", "", html).split())  # the page as read
    for path, item in schema["paths"].items():
        for method, op in item.items():
            assert f"{method.upper()} {path}</code></h2>" in html, (method, path)
            assert " ".join(op["description"].replace("`", "").split()) in text, path
    assert "<code>--json</code>" in html and "`" not in text
    for name in SolveBody.model_fields:
        assert f"<dt><code>{name}</code></dt>" in html
    assert "0..1000000000000000000" in html  # wolves' limits, from the model's Field
    assert 'href="/docs"' in client.get("/mutton").text


def test_web_imports_no_command_line_module() -> None:
    """fleece.web sits on the library API: no module of it imports argparse, Typer, Click,
    fleece.commands or fleece.cli, at module level or inside a function."""
    import ast

    banned = ("argparse", "typer", "click", "fleece.commands", "fleece.cli")
    for path in (ROOT / "web").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            for name in names:
                assert not any(name == b or name.startswith(b + ".") for b in banned), \
                    f"{path.name}:{node.lineno} imports {name}"


def test_only_localhost_names_are_served(client: TestClient) -> None:
    """A loopback server refuses other Host headers (DNS rebinding)."""
    for host in ("localhost", "127.0.0.1:8000", "[::1]:8000", "localhost:1"):
        assert client.get("/", headers={"host": host}).status_code == 200
    for host in ("evil.example", "evil.example:8000", "127.0.0.1.evil.example", ""):
        r = client.get("/", headers={"host": host})
        assert r.status_code == 400, host
        assert r.headers["content-security-policy"] == CSP


def test_no_request_touches_the_file_system(client: TestClient,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Every page and endpoint is answered from memory and the workers: opening a file in
    the app's process while requests run fails the test."""
    opened: list[str] = []
    real_open, real_io_open, real_os_open = builtins.open, io.open, os.open

    def refuse(*args: Any, **kwargs: Any) -> Any:
        opened.append(str(args[0]) if args else "?")
        raise AssertionError(f"the app opened {args[:1]}")

    monkeypatch.setattr(builtins, "open", refuse)
    monkeypatch.setattr(io, "open", refuse)
    monkeypatch.setattr(os, "open", refuse)
    try:
        for path in [*PAGES, "/static/app.js", "/api/puzzles", "/api/puzzles/woof/easy/001"]:
            assert client.get(path).status_code == 200, path
        assert client.post("/api/mutton/solve", json={"chart": HELPPAGE}).status_code == 200
        assert client.post("/mutton", data={"chart": HELPPAGE}).status_code == 200
        assert client.post("/api/woof/solve", json={"evidence": RULEBOOK5}).status_code == 200
        assert client.post("/api/ulvtafl/board", json={}).status_code == 200
        assert client.post("/api/puzzles/mutton/easy/001/check",
                           json={"answer": ["A"]}).status_code == 200
    finally:
        monkeypatch.setattr(builtins, "open", real_open)
        monkeypatch.setattr(io, "open", real_io_open)
        monkeypatch.setattr(os, "open", real_os_open)
    assert opened == []


def test_a_request_past_its_budget_is_stopped_and_the_server_goes_on() -> None:
    """A Monte Carlo War of 10^7 games takes hours, far longer than a 2 s budget: 503 'took
    too long' (JSON and page), not before the budget, its worker killed each time (the pool
    counts two kills), and the next request is answered by the replacement worker."""
    import time

    app = create_app(Config(workers=1, budget=2.0))
    with TestClient(app, base_url="http://localhost") as c:
        pool = app.state.site.pool
        t0 = time.monotonic()
        r = c.post("/api/cards/war/analyse", json={"deck": "wolf", "samples": 10**7})
        assert time.monotonic() - t0 >= 2.0
        assert r.status_code == 503
        assert r.json() == {"error": "took too long: stopped after the 2 s budget of a request"}
        assert pool.killed == 1
        r = c.post("/cards/war", data={"deck": "wolf", "samples": str(10**7)})
        assert r.status_code == 503 and "Took too long" in r.text
        assert pool.killed == 2
        r = c.post("/api/woof/solve", json={"evidence": RULEBOOK5})
        assert r.status_code == 200 and r.json()["consistent"] is True
        assert pool.killed == 2


class _FailingPool:
    """A worker pool whose every job fails with `error` (swapped in for a test)."""

    def __init__(self, error: Exception) -> None:
        self.error = error

    async def run(self, fn: Any, *args: Any, budget: float) -> Any:
        raise self.error


@pytest.mark.parametrize("error,status,message,title", [
    ("too long", 503, "took too long: stopped after the 3 s budget of a request",
     "Took too long"),
    ("failed", 500, "internal error: ValueError: boom", "Internal error"),
    ("bad", 400, "deck: not a deck", "Bad input"),
])
def test_each_failure_type_has_its_status(error: str, status: int, message: str,
                                          title: str) -> None:
    """The app's exception handlers by type, through a site whose pool fails as asked
    (swapped in with app.dependency_overrides): TookTooLong 503, WorkerFailed 500, the
    library's input error 400; JSON under /api, the error page elsewhere."""
    import dataclasses

    from fleece.rules.errors import FleeceError
    from fleece.web.pool import BadJobInput, TookTooLong, WorkerFailed
    from fleece.web.site import get_site

    raised = {"too long": TookTooLong(3.0), "failed": WorkerFailed("ValueError: boom"),
              "bad": BadJobInput(FleeceError("not a deck", field="deck"))}[error]
    app = create_app(Config(workers=1))
    failing = dataclasses.replace(app.state.site, pool=_FailingPool(raised))
    app.dependency_overrides[get_site] = lambda: failing
    c = TestClient(app, base_url="http://localhost")  # no lifespan: no real workers
    r = c.post("/api/cards/war/analyse", json={"deck": "pairs:4"})
    assert (r.status_code, r.json()) == (status, {"error": message})
    r = c.post("/cards/war", data={"deck": "pairs:4"})
    assert r.status_code == status
    assert f"<h1>{title}</h1>" in r.text or message in unescape(r.text)


def test_another_host_is_served_to_any_name() -> None:
    """Listening on a non-loopback address (asked for with a warning) checks no Host name;
    loopback addresses are recognised as such."""
    assert all(is_loopback(h) for h in ("127.0.0.1", "localhost", "::1", "[::1]", "127.3.4.5"))
    assert not any(is_loopback(h) for h in ("0.0.0.0", "192.168.1.2", "example.org", "::"))
    c = TestClient(create_app(Config(host="0.0.0.0", workers=1)), base_url="http://localhost")
    assert c.get("/", headers={"host": "my-laptop.lan:8000"}).status_code == 200


@pytest.mark.parametrize("args,fragment", [
    (["--port", "abc"], "--port: 'abc' is not a whole number"),
    (["--port", "70000"], "70000 is out of range"),
    (["--budget", "0"], "0 is out of range"),
    (["--budget", "1e3"], "'1e3' is not a number of seconds"),
    (["--workers", "0"], "0 is out of range"),
    (["--host", "a b"], "--host 'a b': not a host name or address"),
])
def test_serve_refuses_bad_options_in_one_line(args: list[str], fragment: str) -> None:
    r = invoke(["serve", *args])
    assert r.exit_code == 2
    assert r.stdout == "" and r.stderr.count("\n") == 1 and fragment in r.stderr


def test_serve_on_a_port_in_use_or_an_unknown_host_is_a_one_line_error() -> None:
    """The address is named; no warning is printed for a host that cannot be listened on."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        port = s.getsockname()[1]
        r = invoke(["serve", "--port", str(port)])
    assert r.exit_code == 2
    assert r.stderr == f"fleece: error: cannot listen on 127.0.0.1:{port}: Address already in use\n"
    r = invoke(["serve", "--host", "no-such-host.invalid", "--port", "0"])
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr.startswith("fleece: error: cannot listen on no-such-host.invalid:0: ")
    assert r.stderr.count("\n") == 1


def test_serve_help_names_every_option() -> None:
    r = invoke(["serve", "--help"])
    assert r.exit_code == 0 and r.stderr == ""
    for option in ("--host HOST", "--port PORT", "--open", "--budget BUDGET",
                   "--workers WORKERS", "default 127.0.0.1", "0 picks a free one"):
        assert option in r.stdout, option


class _NoRun:
    """uvicorn.Server.run stand-in: records the sockets it was given instead of serving."""

    sockets: ClassVar[list[socket.socket]] = []

    def run(self, sockets: list[socket.socket]) -> None:
        _NoRun.sockets = list(sockets)


def test_serve_binds_to_localhost_by_default_and_warns_for_another_host(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`fleece serve` listens on 127.0.0.1 unless told otherwise, without a warning; with
    --host 0.0.0.0 it says that others can reach it (uvicorn's loop is replaced, so the
    command returns once it would start serving)."""
    import uvicorn

    monkeypatch.setattr(uvicorn.Server, "run", _NoRun.run)
    r = invoke(["serve", "--port", "0", "--workers", "1"])
    assert r.exit_code == 0, r.output
    (sock,) = _NoRun.sockets
    host, port = sock.getsockname()[:2]
    sock.close()
    assert host == "127.0.0.1" and port > 0
    assert r.stderr == (f"fleece serve: http://127.0.0.1:{port}/ (budget 20 s a request, "
                        "1 worker; Ctrl-C stops)\nfleece serve: stopped\n")
    r = invoke(["serve", "--host", "0.0.0.0", "--port", "0", "--budget", "2.5"])
    assert r.exit_code == 0, r.output
    (sock,) = _NoRun.sockets
    port = sock.getsockname()[1]
    assert sock.getsockname()[0] == "0.0.0.0"
    sock.close()
    first, second, third = r.stderr.splitlines()
    assert first == ("fleece serve: warning: listening on 0.0.0.0, not only this computer: "
                     "anyone who can reach it may use the app")
    assert second.startswith(f"fleece serve: http://127.0.0.1:{port}/ (budget 2.5 s a request")
    assert third == "fleece serve: stopped"


def test_other_commands_do_not_load_the_web_app() -> None:
    """The web libraries are imported by `fleece serve`'s handler only: `fleece --help`,
    `fleece serve --help` and another command start without them."""
    code = (
        "import sys\n"
        "from fleece.cli import main\n"
        "for args in (['--help'], ['serve', '--help'], ['mutton', 'solve', '--help']):\n"
        "    try:\n"
        "        main(args)\n"
        "    except SystemExit:\n"
        "        pass\n"
        "heavy = ('starlette', 'uvicorn', 'jinja2', 'fleece.web', 'anyio')\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in heavy\n"
        "             or m.startswith('fleece.web')))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, timeout=120, check=True)
    assert out.stdout.strip().splitlines()[-1] == "[]"
