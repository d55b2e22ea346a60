"""Write the hostile-input corpus (tests/hostile/files/) from the bundled examples.

The files are committed; this script documents how each was made and rewrites them:
    python tests/hostile/make_corpus.py
tests/hostile/cases.txt names the command run on each file and a phrase its one-line error
must contain (tests/test_hostile_cli.py).
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
FILES = HERE / "files"
HUGE = "9" * 5000


def chart() -> str:
    """The help page chart with plain spaces (what `fleece mutton chart` prints)."""
    return (
        "Score: 5 (10 to beat).\n"
        "Sheep   : A B C x E F G x I x K L M N O P Q R x T U V x X Y Z\n"
        "Round  1:           +   x   +                       +\n"
        "Round  2:     + +           x                 +\n"
        "Round  3:       +   +           +   +                 x     +\n"
    )


def main() -> None:
    FILES.mkdir(exist_ok=True)
    for old in FILES.iterdir():
        old.unlink()
    c = chart()
    rec = (ROOT / "examples" / "mutton" / "wolf-pass.rec").read_text(encoding="utf-8")
    woof = (ROOT / "examples" / "woof" / "dummy4.txt").read_text(encoding="utf-8")
    mpz = (ROOT / "puzzles" / "mutton" / "easy" / "001.txt").read_text(encoding="utf-8")
    wpz = (ROOT / "puzzles" / "woof" / "easy" / "001.txt").read_text(encoding="utf-8")
    wpj = json.loads((ROOT / "puzzles" / "woof" / "easy" / "001.json").read_text("utf-8"))
    ulv = (ROOT / "examples" / "ulvtafl" / "full-game.rec").read_text(encoding="utf-8")
    war = (ROOT / "examples" / "cards" / "war-cycle.txt").read_text(encoding="utf-8")
    files: dict[str, str | bytes] = {
        # integers: thousands of digits, other scripts' digits, signs and underscores
        "score-huge.txt": c.replace("Score: 5", "Score: " + HUGE),
        "round-huge.txt": c.replace("Round  2", "Round " + HUGE),
        "round-arabic.txt": c.replace("Round  3", "Round \u0663"),
        "score-fullwidth.txt": c.replace("Score: 5", "Score: \uff15"),
        "size-huge.rec": rec.replace("-size=4", "-size=" + HUGE, 1),
        "size-superscript.rec": rec.replace("-size=4", "-size=\u00b2", 1),
        "seed-huge.rec": "-size=4 -num_sheep=26 -num_wolves=4\nrandom=" + HUGE + "\n",
        "wolves-huge.txt": mpz.replace("Wolves: 4", "Wolves: " + HUGE),
        "seats-huge.txt": "seats " + HUGE + "\n",
        "seats-underscore.txt": "seats 0_8\n",
        "seats-plus.txt": "seats +8\n",
        "seat-huge.txt": woof + "look 1 " + HUGE + " wolf\n",
        "copies-huge.txt": "seats 4\ndeck sheep*" + HUGE + "\n",
        "json-number-huge.json": '{"wolves": ' + HUGE + ', "paste": ' + json.dumps(c) + "}",
        # JSON: depth, strict types, unknown fields
        "json-deep.json": "[" * 100_000 + "]" * 100_000,
        "json-wolves-true.json": json.dumps({"wolves": True, "paste": c}),
        "json-reveal-string.json": json.dumps({"reveal": "false", "paste": c}),
        "json-passed-string.json": json.dumps({"passed": "no", "paste": c}),
        "json-rows-number.json": json.dumps({"animals": "ABCD", "rows": 5}),
        "json-status-list.json": json.dumps({"animals": "ABCD", "status": ["A"]}),
        "json-top-list.json": json.dumps([c]),
        "json-nan.json": '{"wolves": NaN, "paste": ' + json.dumps(c) + "}",
        "json-repeated-key.json": '{"wolves": 3, "wolves": 4, "paste": ' + json.dumps(c) + "}",
        "json-unknown-field.json": json.dumps({"wolfs": 3, "paste": c}),
        "json-paste-error.json": json.dumps({"paste": c.replace("Round  2:", "Round  2: q")}),
        "json-record-error.json": json.dumps({"record": rec.replace("\npass\n", "\npas\n", 1)}),
        "puzzle-json-wolves-true.json": json.dumps(
            {**json.loads((ROOT / "puzzles" / "mutton" / "easy" / "001.json").read_text()),
             "wolves": True}),
        "woof-json-text-error.json": json.dumps(
            {**wpj, "puzzle_text": wpj["puzzle_text"].replace("look 5 7", "look 5 x")}),
        "woof-json-text-number.json": json.dumps({**wpj, "puzzle_text": 5}),
        # Woof!! puzzle questions about seats the table does not have
        "woof-question-99.txt": wpz.replace("What is seat 7?", "What is seat 99?"),
        "woof-question-0.txt": wpz.replace("What is seat 7?", "What is seat 0?"),
        "woof-question-words.txt": wpz.replace("What is seat 7?", "What is seat seven?"),
        # reading: invalid UTF-8 (a BOM alone is fine and not in this corpus)
        "invalid-utf8.txt": c.encode("utf-8").replace(b"Round  2", b"Round \xff2"),
        # messages: control and invisible characters, long tokens, other line separators
        "control-chars.txt": c.replace("Round  1:", "Round  1: \x1b[31m"),
        "long-token.txt": "Sheep   : " + "Q" * 3000 + "\n",
        "line-separator.txt": c.replace("\nRound  3", "\u2028Round  3"),
        "form-feed.txt": c.replace("\nRound  2", "\x0cRound  2"),
        "nul-byte.txt": c.replace("Round  3:", "Round  3:\x00"),
        # Ulvtafl records and the card games' position texts: numbers, lines
        "ulv-setup-huge.rec": ulv.replace("setup=20", "setup=" + HUGE),
        "ulv-setup-arabic.rec": ulv.replace("setup=20", "setup=\u0662\u0660"),
        "ulv-line-separator.rec": ulv.replace("\nc7-d6\ne4-e5\n", "\nc7-d6\u2028e4-e5\n"),
        "ulv-position-huge.txt": "W.W/.../......./SSSSSSS/SSSSSSS/SSS/SSS w " + HUGE + "\n",
        "war-lone-cr.txt": war.replace("limit=none\n", "limit=none\r"),
        "war-limit-huge.txt": war.replace("limit=none", "limit=" + HUGE),
        "war-deal-arabic.txt": war.replace("deal 1 1 4", "deal 1 \u0661 4"),
        # M25: a w in a Round row must agree with the Sheep row
        "w-under-sheep.txt": "Sheep   : A B C D x F G H\nRound  1:       + w +\n",
        "w-under-living.txt": "Sheep   : A B C D w F G H\nRound  1:   w   + x +\n",
    }
    for name, data in files.items():
        path = FILES / name
        if isinstance(data, bytes):
            path.write_bytes(data)
        else:
            path.write_text(data, encoding="utf-8", newline="")
    print(f"wrote {len(files)} files to {FILES}")


if __name__ == "__main__":
    main()
