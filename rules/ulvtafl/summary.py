"""Results of the board and replay commands as values with `to_json()` (the command line
prints them; a web app can serve the same dicts)."""

from __future__ import annotations

from dataclasses import dataclass

from fleece.rules.ulvtafl.diagram import diagram
from fleece.rules.ulvtafl.game import SIDE_NAMES, UlvState
from fleece.rules.ulvtafl.geometry import PADDOCK, names_of
from fleece.rules.ulvtafl.notation import position_text
from fleece.rules.ulvtafl.record import Record


@dataclass(frozen=True)
class BoardSummary:
    """One position: its text, its diagram, the pieces, who moves, the result, the moves."""

    state: UlvState

    def to_json(self) -> dict[str, object]:
        """A JSON-ready dict."""
        s = self.state
        return {"position": position_text(s), "sheep": names_of(s.sheep),
                "wolves": names_of(s.wolves),
                "to_move": None if s.result else SIDE_NAMES[s.to_move],
                "paddock_filled": ((s.sheep | s.wolves) & PADDOCK).bit_count(),
                "result": s.result, "reason": s.reason or None,
                "legal_moves": [m.text() for m in s.legal_moves()],
                "rules": s.rules.tokens()}

    def text(self) -> str:
        """The diagram and the position string."""
        return diagram(self.state) + "position: " + position_text(self.state) + "\n"


@dataclass(frozen=True)
class ReplaySummary:
    """A replayed record: its options line, the moves and the final position."""

    record: Record
    states: tuple[UlvState, ...]

    def to_json(self) -> dict[str, object]:
        """A JSON-ready dict."""
        return {"options": self.record.options_line,
                "moves": [m.text() for m, _, _ in self.record.moves],
                "plies": len(self.record.moves), "final": BoardSummary(self.states[-1]).to_json()}

    def text(self) -> str:
        """The moves played and the final board."""
        out = [f"options: {self.record.options_line}",
               f"{len(self.record.moves)} moves replayed"]
        moves = [m.text() for m, _, _ in self.record.moves]
        for i in range(0, len(moves), 2):
            out.append(f"{i // 2 + 1:>3}. " + "  ".join(moves[i:i + 2]))
        return "\n".join(out) + "\n\n" + BoardSummary(self.states[-1]).text()
