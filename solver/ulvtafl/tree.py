"""A proof-number tree over bounded df-pn searches, for wins too large for one table.

The top of the game is an explicit AND/OR graph kept in Python (the front end); each of its
leaves is searched by a df-pn Prover for at most `leaf_nodes` nodes (the back end), as in
PN² and in the checkers proof's front-end/back-end split. The front end picks the most-
proving leaf as proof-number search does: a leaf not yet searched is searched (with its
unsearched siblings, one per worker), a searched open leaf is expanded. Proved leaves keep
their certificates, so memory holds the frontier, never the whole proof; the back end's
tables are caches (one per worker, retargeted from leaf to leaf, so proofs found for one
leaf serve the next).

Soundness. A position is one node whatever the path to it. A proof is the same on every
path (a repetition never proves anything); a disproof of a leaf holds on every path too
(history only adds draws, which help the defender). A move that would close a cycle in the
graph is a repetition edge: never a win for the attacker, so proofs stay sound and a
disproof that may lean on one is reported as "failed", not "disproved". The root's
certificate joins the leaves' certificates (an earlier one takes precedence where two meet,
so a line that enters one never climbs back) and the graph's own moves (each an attacker
move to a child proved before its parent) and is re-checked by the reference rules.

With `safe_leaves` (sheep attacker only) a leaf is first searched with the sheep restricted
to moves no wolf can capture after (Prover safe_only), whose proofs hold; when that search
fails, the unrestricted search decides the leaf. With `focus_leaves` (sheep attacker
only) each leaf gets a focused search first (Prover focus: the sheep move near the wolves,
with a few tempo moves elsewhere; far smaller, its proofs hold) and goes on to the others
only when it fails: a focused leaf that runs out of budget is searched again with more, and
then expanded, where the front end gives the sheep every (safe) move the focus left out.
The front end itself lets the attacker
play every move, unless `safe_front`: then where the sheep have a move no wolf can capture
after, the front end gives them only such moves, so the tree never follows a sacrifice. Its
proofs hold; a disproof is then only "failed" (the pruned moves might win).

    tree = ProofTree(initial_state(UlvtaflOptions(setup=20)), SHEEP, workers=2)
    tree.run(seconds=3600, folder="runs/tree20")
    if tree.outcome() == "proved":
        cert = tree.certificate()        # position text -> move, checked by the rules
    tree.retarget(earlier)               # a position before it: the graph and proofs stay
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable
from concurrent.futures import ALL_COMPLETED, FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fleece.rules.errors import FleeceError
from fleece.rules.ulvtafl.game import SHEEP, UlvState, threatened
from fleece.rules.ulvtafl.notation import parse_position, position_text
from fleece.solver.ulvtafl import engine as e
from fleece.solver.ulvtafl.budget import check_positive, resolve
from fleece.solver.ulvtafl.certificate import (
    Certificate,
    bare,
    check_certificate,
    read_seeds,
    write_json,
)
from fleece.solver.ulvtafl.parallel import mirror_move, mirror_position, start_ray
from fleece.solver.ulvtafl.prover import (
    DEFAULT_EPSILON,
    DEFAULT_PROFILE,
    HISTORY_POINTS,
    SIDE,
    CheckpointError,
    Prover,
    RunClock,
    check_options,
    refuse_seed,
    table_bits_for,
)

INF = int(e.INF)  # a proof or disproof number that cannot be reached
FORMAT = "fleece-ulvtafl-tree"
VERSION = 1
REPEAT = 0  # the node every repetition edge leads to: never an attacker win
ROOT = 1
EXPAND = -2  # Node.cert of a leaf that searching again cannot move on: expand it next
Progress = Callable[[dict[str, Any]], None]


@dataclass
class Node:
    """A position of the front end, in the orientation of the two mirror images (files a
    <-> g) whose text sorts first. `attacks`: the attacker moves here (an OR node).
    A leaf holds its search's numbers; an expanded node (kids set) the numbers of its
    kids. `seq` orders settled nodes (a kid is settled before its parent); `choice` is
    the proved kid an OR node plays; `cert` indexes the certificate of a leaf proved by
    its search (EXPAND: searching it again would get nowhere); `flips[j]`: kid j is the
    mirror image of what move j reaches."""

    position: str
    attacks: bool
    pn: int = 1
    dn: int = 1
    searched: bool = False
    kids: list[int] | None = None
    moves: list[str] | None = None
    parents: list[int] = field(default_factory=list)
    work: int = 0
    seq: int = 0
    choice: int = -1
    cert: int = -1
    flips: list[bool] | None = None

    def to_json(self) -> list[Any]:
        """A compact row of the tree file."""
        return [self.position, self.attacks, self.pn, self.dn, self.searched, self.kids,
                self.moves, self.parents, self.work, self.seq, self.choice, self.cert,
                self.flips]

    @classmethod
    def from_json(cls, row: list[Any]) -> Node:
        """The node of a tree file row."""
        return cls(*row)


Kind = tuple[bool, int]  # a leaf search's restriction of the sheep: (safe only, focus)


def leaf_kinds(safe: bool, focus: int) -> list[Kind]:
    """The searches a leaf gets, in order: focused (when asked), then safe-only (when
    asked), then unrestricted."""
    kinds: list[Kind] = []
    if focus:
        kinds.append((safe, focus))
    if safe:
        kinds.append((True, 0))
    kinds.append((False, 0))
    return kinds


def worker_bits(memory: int, safe: bool, focus: int = 0) -> dict[Kind, int]:
    """A worker's table sizes (one per leaf kind) within its memory: a focused search,
    which decides most leaves when asked for, gets half; of the rest, with safe leaves, the
    safe search gets three quarters. BudgetError in one line when a table cannot fit."""
    bits: dict[Kind, int] = {}
    if focus:
        bits[(safe, focus)] = table_bits_for(memory // 2)
        memory -= memory // 2
    if not safe:
        bits[(False, 0)] = table_bits_for(memory)
        return bits
    bits[(True, 0)] = table_bits_for(memory * 3 // 4)
    bits[(False, 0)] = table_bits_for(memory // 4)
    return bits


class Worker:
    """One back-end searcher: a Prover per leaf kind (focused, safe-only, unrestricted, as
    asked), each retargeted from leaf to leaf so its table carries over, and each seeded
    with the proofs of the seed certificate files when it is made."""

    def __init__(self, attacker: int, memory: int, safe: bool,
                 profile: str = DEFAULT_PROFILE, focus: int = 0,
                 seeds: tuple[str, ...] = (), epsilon: float = DEFAULT_EPSILON) -> None:
        self.attacker = attacker
        self.bits = worker_bits(memory, safe, focus)
        self.kinds = leaf_kinds(safe, focus)
        self.profile = profile
        self.seeds = seeds
        self.epsilon = epsilon
        self.provers: dict[Kind, Prover] = {}

    def _prover(self, kind: Kind, state: UlvState) -> Prover:
        prover = self.provers.get(kind)
        if prover is None:
            prover = Prover(state, self.attacker, table_bits=self.bits[kind],
                            safe_only=kind[0], focus=kind[1], profile=self.profile,
                            epsilon=self.epsilon)
            prover.seed_files(self.seeds)
            self.provers[kind] = prover
        else:
            prover.retarget(state)
        return prover

    def search(self, position: str, nodes: int) -> dict[str, Any]:
        """Search a leaf: its outcome, numbers, nodes spent and certificate when proved. A
        restricted search that fails hands the leaf to the next kind; one that runs out of
        budget ends the leaf's turn (searching it again gives it more)."""
        state = parse_position(position)
        spent = 0
        info: dict[str, Any] = {}
        for kind in self.kinds:
            prover = self._prover(kind, state)
            before = prover.nodes
            outcome = prover.step(nodes)
            spent += prover.nodes - before
            pn, dn = prover.root_numbers()
            info = {"outcome": outcome, "pn": min(pn, INF), "dn": min(dn, INF)}
            if outcome == "proved":
                info["certificate"] = prover.certificate()
                break
            if outcome != "failed":
                break
        info["nodes"] = spent
        return info

    def numbers(self, state: UlvState) -> tuple[int, int] | None:
        """A position's numbers as this worker's tables hold them (the most restricted
        first)."""
        for kind in self.kinds:
            prover = self.provers.get(kind)
            if prover is not None and prover.state.rules == state.rules:
                got = prover.numbers(state)
                if got is not None:
                    return got
        return None


class _Threads:
    """Leaf searches on threads of this process (the compiled search releases the GIL);
    the workers, and so their tables, last as long as the tree."""

    name = "threads"

    def __init__(self, workers: list[Worker]) -> None:
        self.workers = workers
        self.free = list(range(len(workers)))
        self.pool: ThreadPoolExecutor | None = None
        self.running: dict[Future[dict[str, Any]], tuple[int, int]] = {}

    def submit(self, leaf: int, position: str, budget: int) -> None:
        if self.pool is None:
            self.pool = ThreadPoolExecutor(max_workers=len(self.workers))
        w = self.free.pop()
        self.running[self.pool.submit(self.workers[w].search, position, budget)] = (leaf, w)

    def wait(self, every: bool = False) -> list[tuple[int, dict[str, Any]]]:
        """Results of finished searches (the first to finish, or `every` running one)."""
        done, _ = wait(list(self.running), return_when=ALL_COMPLETED if every
                       else FIRST_COMPLETED)
        out = []
        for f in done:
            leaf, w = self.running.pop(f)
            self.free.append(w)
            out.append((leaf, f.result()))
        return out

    def numbers(self, state: UlvState) -> tuple[int, int] | None:
        for w in self.workers:
            got = w.numbers(state)
            if got is not None:
                return got
        return None

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True)
            self.pool = None


class _Ray:
    """Leaf searches on Ray actors, one Worker each (`ray.init()` on this machine for
    "local", or an existing cluster's address); their tables last for one run."""

    name = "ray"

    def __init__(self, address: str, count: int, args: tuple[Any, ...]) -> None:
        self.ray, self.started = start_ray(address, count)
        actor = self.ray.remote(num_cpus=1)(Worker)
        self.workers: list[Any] = [actor.remote(*args) for _ in range(count)]
        self.free = list(range(count))
        self.running: dict[Any, tuple[int, int]] = {}

    def submit(self, leaf: int, position: str, budget: int) -> None:
        w = self.free.pop()
        self.running[self.workers[w].search.remote(position, budget)] = (leaf, w)

    def wait(self, every: bool = False) -> list[tuple[int, dict[str, Any]]]:
        refs = list(self.running)
        done, _ = self.ray.wait(refs, num_returns=len(refs) if every else 1)
        out = []
        for r in done:
            leaf, w = self.running.pop(r)
            self.free.append(w)
            out.append((leaf, self.ray.get(r)))
        return out

    def numbers(self, state: UlvState) -> tuple[int, int] | None:
        return None  # the tables are in other processes: kids start at (1, 1)

    def close(self) -> None:
        for w in self.workers:
            self.ray.kill(w)
        if self.started:
            self.ray.shutdown()


class ProofTree:
    """The front end: an AND/OR graph of positions over bounded df-pn leaf searches (see
    the module's docstring), with budgets, progress, Ctrl-C and a folder to resume from."""

    def __init__(self, state: UlvState, attacker: int, *, workers: int = 1,
                 leaf_nodes: int = 1_000_000, leaf_max: int | None = None,
                 memory: int | str | None = None, safe_leaves: bool = False,
                 safe_front: bool = False, profile: str = DEFAULT_PROFILE,
                 focus_leaves: int = 0, seeds: tuple[str, ...] = (),
                 epsilon: float = DEFAULT_EPSILON) -> None:
        if workers < 1:
            raise FleeceError(f"workers must be at least 1, not {workers}", field="workers")
        check_positive("the leaf budget", leaf_nodes)
        leaf_max = 64 * leaf_nodes if leaf_max is None else leaf_max
        if leaf_max < leaf_nodes:
            raise FleeceError(f"the largest leaf search ({leaf_max:,} nodes) is smaller than "
                              f"the first ({leaf_nodes:,})", field="leaf_max")
        for flag, name in ((safe_leaves, "safe_leaves"), (safe_front, "safe_front")):
            if flag and attacker != SHEEP:
                raise FleeceError("only the sheep's moves can be restricted "
                                  f"({name.replace('_', ' ')})", field=name)
        check_options(attacker, profile, False, False, focus_leaves, epsilon)
        root = bare(state)
        if root.is_terminal():
            raise FleeceError("the game is over in this position: nothing to prove",
                              field="position")
        self.root_state = root
        self.attacker = attacker
        self.workers = workers
        self.leaf_nodes = leaf_nodes
        self.leaf_max = leaf_max
        self.busy: dict[int, tuple[int, int]] = {}  # leaves being searched: their numbers
        self.memory = resolve(memory)
        self.safe_leaves = safe_leaves
        self.safe_front = safe_front
        self.focus_leaves = focus_leaves
        # refuse too small a budget now
        worker_bits(self.memory // workers, safe_leaves, focus_leaves)
        self.profile = profile
        self.epsilon = epsilon  # the leaf searches' 1+epsilon
        self.seeds = seeds  # certificate files whose proofs every leaf search starts with
        self.saved_seeds = seeds  # (load) the ones the tree file names, whatever is given
        for path in seeds:  # read and verified here once, so a bad one stops nothing later
            def refuse(cert: Certificate, path: str = path) -> None:
                try:
                    refuse_seed(cert, attacker, root.rules)
                except FleeceError as err:
                    raise FleeceError(err.message, field="seeds", source=path) from None

            for cert, _ in read_seeds(path, refuse):  # refused before its proof is walked
                refuse(cert)
        self.nodes: list[Node] = [Node("", False, INF, 0, True)]
        self.index: dict[str, int] = {}
        self.certs: list[dict[str, str]] = []
        self.work = 0
        self.seconds = 0.0
        self.leaves = 0
        self.seq = 0
        self.repetitions = 0
        self.entered: list[tuple[int, int, bool]] = []  # (parent, slot, flip): moves into
        # the root that retarget made repetition edges, given back when the root moves on
        self.trace: list[dict[str, Any]] = []
        self.history: list[dict[str, Any]] = []  # the root numbers over time (RunClock)
        self.executor = "threads"
        self._threads: _Threads | None = None
        self._pool: _Threads | _Ray | None = None
        self.root_flip = self._node(root)[1]

    # ---- the graph --------------------------------------------------------------------

    def _node(self, state: UlvState) -> tuple[int, bool]:
        """The node of a position and whether it holds the mirror image (made when new; an
        ended game is settled at once)."""
        text = position_text(state)
        image = mirror_position(text)
        flip = image < text
        if flip:
            text = image
        found = self.index.get(text)
        if found is not None:
            return found, flip
        node = Node(text, state.to_move == self.attacker)
        if state.is_terminal():
            won = state.result == SIDE[self.attacker]
            node.pn, node.dn, node.searched = (0, INF, True) if won else (INF, 0, True)
        self.nodes.append(node)
        self.index[text] = len(self.nodes) - 1
        return len(self.nodes) - 1, flip

    def _is_ancestor(self, a: int, b: int) -> bool:
        """True when `a` is `b` or lies above it (so an edge b -> a would close a cycle)."""
        seen = {b}
        todo = [b]
        while todo:
            i = todo.pop()
            if i == a:
                return True
            for p in self.nodes[i].parents:
                if p not in seen:
                    seen.add(p)
                    todo.append(p)
        return False

    def _moves(self, state: UlvState, attacks: bool) -> list[tuple[str, UlvState]]:
        """The moves the front end plays from a position and where they go: every legal
        move, or with `safe_front` the sheep attacker's safe ones (and those that end the game)
        where there are any."""
        out = [(m.text(), bare(state.play(m))) for m in state.legal_moves()]
        if attacks and self.safe_front:  # a move that ends the game is always kept
            safe = [(m, c) for m, c in out if c.is_terminal()
                    or not threatened(c.rules, c.sheep, c.wolves)]
            return safe or out
        return out

    def _expand(self, i: int) -> None:
        """Give a searched open leaf its kids (one per distinct position reached), their
        first numbers from the workers' tables where they hold them."""
        node = self.nodes[i]
        state = parse_position(node.position)
        kids: list[int] = []
        moves: list[str] = []
        flips: list[bool] = []
        for m, child in self._moves(state, node.attacks):
            size = len(self.nodes)
            k, flip = self._node(child)
            known = k < size
            if known and self._is_ancestor(k, i):
                k, flip = REPEAT, False
                self.repetitions += 1
            if k != REPEAT and any(k == a and flip == b
                                   for a, b in zip(kids, flips, strict=True)):
                continue  # a position two moves reach (its mirror image is another kid)
            kids.append(k)
            moves.append(m)
            flips.append(flip)
            kid = self.nodes[k]
            if k != REPEAT:
                kid.parents.append(i)
            if not known and not kid.searched:
                got = self._pool.numbers(child) if self._pool is not None else None
                if got is not None:
                    kid.pn = max(1, min(got[0], INF - 1))
                    kid.dn = max(1, min(got[1], INF - 1))
        node.kids, node.moves, node.flips = kids, moves, flips
        self._update(i)

    def _values(self, node: Node,
                look: Callable[[int], tuple[int, int]] | None = None) -> tuple[int, int]:
        """An expanded node's numbers from its kids' (as `look` gives them: by default the
        graph's). A position two moves reach (a move and its mirror image) counts once in a
        sum: proving it once proves it for both."""
        assert node.kids is not None
        pairs = [look(k) if look is not None else (self.nodes[k].pn, self.nodes[k].dn)
                 for k in dict.fromkeys(node.kids)]
        pns = [p for p, _ in pairs]
        dns = [d for _, d in pairs]
        if node.attacks:
            return min(pns), min(INF, sum(dns))
        return min(INF, sum(pns)), min(dns)

    def _settle(self, i: int) -> None:
        """Stamp a node that has just been proved or disproved."""
        node = self.nodes[i]
        self.seq += 1
        node.seq = self.seq
        if node.pn == 0 and node.attacks and node.kids is not None:
            proved = [(self.nodes[k].seq, j) for j, k in enumerate(node.kids)
                      if self.nodes[k].pn == 0]
            node.choice = min(proved)[1]

    def _update(self, i: int) -> None:
        """Recompute an expanded node and carry changes up through every parent."""
        todo = [i]
        while todo:
            j = todo.pop()
            node = self.nodes[j]
            if node.kids is None:
                changed = True
            else:
                pn, dn = self._values(node)
                changed = (pn, dn) != (node.pn, node.dn)
                node.pn, node.dn = pn, dn
            if changed and node.seq and node.pn != 0 and node.dn != 0:
                node.seq, node.choice = 0, -1  # a proof lost (retarget): settle it again
            if changed and (node.pn == 0 or node.dn == 0) and node.seq == 0:
                self._settle(j)
            if changed:
                todo.extend(node.parents)

    def _select(self) -> list[int]:
        """The path from the root to the most-proving leaf."""
        path = [ROOT]
        while self.nodes[path[-1]].kids is not None:
            step = self._select_from(path[-1])
            assert step is not None  # an open expanded node has an open kid
            path.append(step[0])
        return path

    def _next(self) -> tuple[int, int] | None:
        """The next leaf to search and its budget: the most-proving leaf (leaves being
        searched count as hopeless meanwhile). A searched leaf is searched again with its
        work doubled until it has had `leaf_max` nodes, then expanded. None when the root
        is settled or every open leaf is being searched."""
        while not self.settled():
            leaf = self._select()[-1]
            node = self.nodes[leaf]
            if leaf in self.busy:
                return None
            if leaf == ROOT and self.workers > 1 and node.kids is None:
                self._expand(leaf)  # one root search would leave the other workers idle
                continue
            if not node.searched:
                return leaf, self.leaf_nodes
            if node.work < self.leaf_max and node.cert != EXPAND:
                return leaf, min(max(node.work, self.leaf_nodes), self.leaf_max - node.work)
            self._expand(leaf)
        return None

    def _claim(self, i: int) -> None:
        """Mark a leaf as being searched: hopeless to the selection until its result."""
        node = self.nodes[i]
        self.busy[i] = (node.pn, node.dn)
        node.pn = node.dn = INF - 1
        self._update(i)

    def _record(self, i: int, info: dict[str, Any]) -> None:
        """A leaf's search result into the graph."""
        node = self.nodes[i]
        node.pn, node.dn = self.busy.pop(i, (node.pn, node.dn))
        node.searched = True
        node.work += int(info["nodes"])
        self.work += int(info["nodes"])
        self.leaves += 1
        outcome = info["outcome"]
        cert = info.get("certificate")
        if outcome == "proved" and cert is not None:
            self.certs.append(cert)
            node.cert = len(self.certs) - 1
            node.pn, node.dn = 0, INF
        elif outcome == "proved":  # the store lost part of it: expanding will find it again
            node.pn, node.dn = 1, 1
            node.cert = EXPAND
        elif outcome == "disproved":
            node.pn, node.dn = INF, 0
        else:
            node.pn = max(1, min(int(info["pn"]), INF - 1))
            node.dn = max(1, min(int(info["dn"]), INF - 1))
            if int(info["nodes"]) == 0:  # e.g. a disproof too large to check: split it
                node.cert = EXPAND
        self._update(i)

    # ---- running ----------------------------------------------------------------------

    def _worker_args(self) -> tuple[Any, ...]:
        return (self.attacker, self.memory // self.workers,
                self.safe_leaves, self.profile, self.focus_leaves, self.seeds, self.epsilon)

    def settled(self) -> bool:
        """True once the root is proved or disproved."""
        root = self.nodes[ROOT]
        return root.pn == 0 or root.dn == 0

    def outcome(self) -> str:
        """"proved", "disproved", "failed" (a disproof that may lean on a repetition
        edge or on the moves `safe_front` left out, which says nothing of the game) or
        "open"."""
        root = self.nodes[ROOT]
        if root.pn == 0:
            return "proved"
        if root.dn == 0:
            return "failed" if self.repetitions or self.safe_front else "disproved"
        return "open"

    def run(self, nodes: int | None = None, seconds: float | None = None,
            progress: Progress | None = None, folder: str | Path | None = None,
            every: float = 600.0, report_every: float = 10.0,
            ray_address: str | None = None) -> str:
        """Grow the tree within a budget of leaf-search nodes and/or seconds (None: until
        settled). A leaf search always finishes, so a budget holds within one leaf search.
        `progress` gets a dict every `report_every` seconds; with `folder` the tree is
        saved there every `every` seconds and at the end. The leaves are searched by
        threads, or by Ray actors with `ray_address` ("local" starts Ray here; "auto" or
        "ray://host:port" joins a cluster). Ctrl-C stops cleanly once the running leaf
        searches end and returns "interrupted"."""
        clock = RunClock(self, self.work, nodes, seconds, progress, folder, every,
                         report_every)
        if ray_address is not None:
            pool: _Threads | _Ray = _Ray(ray_address, self.workers, self._worker_args())
        else:
            if self._threads is None:
                self._threads = _Threads([Worker(*self._worker_args())
                                          for _ in range(self.workers)])
            pool = self._threads
        self._pool = pool
        self.executor = pool.name
        why = "open"
        try:
            while True:
                if why == "open":  # once spent, the running searches only finish
                    why = clock.spent(self.work)
                while pool.free and why == "open":
                    pick = self._next()
                    if pick is None:
                        break
                    leaf, budget = pick
                    self._claim(leaf)
                    pool.submit(leaf, self.nodes[leaf].position, budget)
                if not pool.running:
                    break
                for leaf, info in pool.wait():
                    self._record(leaf, info)
                clock.tick()
        except KeyboardInterrupt:
            why = "interrupted"
            if pool.running:  # compiled searches cannot stop midway
                for leaf, info in pool.wait(every=True):
                    self._record(leaf, info)
        finally:
            pool.close()
            self._pool = None
        return clock.end(why)

    def retarget(self, state: UlvState) -> None:
        """Make another position the root, keeping the graph, its proofs and the workers'
        tables: walking back along a game, the old root's proof serves the new root's.
        Repetition edges stay (a cycle is a cycle whatever the root), and a move into the
        new root from inside the graph becomes one (every path now starts there) until the
        root moves on again; outcome() and the certificate are then the new root's, and
        the root numbers over time start again (`history`)."""
        root = bare(state)
        if root.is_terminal():
            raise FleeceError("the game is over in this position: nothing to prove",
                              field="position")
        if self.busy:
            raise FleeceError("a tree cannot change its root while leaves are being "
                              "searched", field="position")
        # the old root's moves in are moves again, unless the root has since come above
        # them: then they close a cycle and stay repetitions
        back = [e for e in self.entered if not self._is_ancestor(ROOT, e[0])]
        for p, j, flip in back:
            parent = self.nodes[p]
            assert parent.kids is not None and parent.flips is not None
            parent.kids[j], parent.flips[j] = ROOT, flip
            self.nodes[ROOT].parents.append(p)
            self.repetitions -= 1
        for p in dict.fromkeys(p for p, _, _ in back):
            self._update(p)
        self.entered = []
        i, flip = self._node(root)
        if i != ROOT:
            self._swap(i, ROOT)
        self.root_state = root
        self.root_flip = flip
        self.history = []
        parents = self.nodes[ROOT].parents
        self.nodes[ROOT].parents = []
        for p in dict.fromkeys(parents):
            parent = self.nodes[p]
            assert parent.kids is not None and parent.flips is not None
            for j, k in enumerate(parent.kids):
                if k == ROOT:
                    self.entered.append((p, j, parent.flips[j]))
                    parent.kids[j], parent.flips[j] = REPEAT, False
                    self.repetitions += 1
            self._update(p)

    def _swap(self, a: int, b: int) -> None:
        """Exchange the indices of two nodes everywhere they are named."""
        if a == b:
            return
        swap = {a: b, b: a}
        self.nodes[a], self.nodes[b] = self.nodes[b], self.nodes[a]
        for node in self.nodes:
            if node.kids is not None:
                node.kids = [swap.get(k, k) for k in node.kids]
            node.parents = [swap.get(p, p) for p in node.parents]
        self.entered = [(swap.get(p, p), j, f) for p, j, f in self.entered]
        for i in (a, b):
            self.index[self.nodes[i].position] = i

    # ---- what it found ----------------------------------------------------------------

    def progress_info(self, start: int = 0, spent: float = 0.0) -> dict[str, Any]:
        """The progress line's figures: leaf-search nodes, their rate, the root's numbers,
        the graph's size."""
        pn, dn = self.root_numbers()
        rate = (self.work - start) / spent if spent > 0 else 0.0
        return {"nodes": self.work, "seconds": round(self.seconds, 1),
                "nodes_per_second": round(rate), "proof_number": pn,
                "disproof_number": dn, "tree_nodes": len(self.nodes) - 1,
                "expanded": sum(1 for n in self.nodes[1:] if n.kids is not None),
                "leaf_searches": self.leaves, "proved_leaves": len(self.certs),
                "leaf_nodes": self.leaf_nodes, "leaf_max": self.leaf_max,
                "safe_front": self.safe_front, "focus_leaves": self.focus_leaves,
                "outcome": self.outcome()}

    def root_numbers(self) -> tuple[int, int]:
        """The root's proof and disproof numbers, with the leaves being searched at their
        last numbers (the graph holds them as hopeless meanwhile)."""
        if not self.busy:
            root = self.nodes[ROOT]
            return root.pn, root.dn
        memo: dict[int, tuple[int, int]] = {}
        for i in self._order():
            node = self.nodes[i]
            if i in self.busy:
                memo[i] = self.busy[i]
            elif node.kids is None:
                memo[i] = (node.pn, node.dn)
            else:
                memo[i] = self._values(node, lambda k: memo.get(
                    k, (self.nodes[k].pn, self.nodes[k].dn)))
        return memo[ROOT]

    def principal_line(self, limit: int = 200) -> list[dict[str, Any]]:
        """The most-proving path from the root as it was given (a node holding the mirror
        image has its moves mirrored back): each move with the numbers of the position it
        reaches."""
        line: list[dict[str, Any]] = []
        i, flip = ROOT, self.root_flip
        while len(line) < limit:
            node = self.nodes[i]
            if node.kids is None or node.pn == 0 or node.dn == 0:
                break
            path = self._select_from(i)
            if path is None:
                break
            j, move, flipped = path
            kid = self.nodes[j]
            line.append({"move": mirror_move(move) if flip else move,
                         "proof_number": kid.pn, "disproof_number": kid.dn,
                         "searched": kid.searched, "expanded": kid.kids is not None})
            i, flip = j, flip != flipped
        return line

    def _select_from(self, i: int) -> tuple[int, str, bool] | None:
        """The most-proving kid of an expanded node, the move to it and whether the kid
        holds the mirror image of what the move reaches (None when none is open): the
        least proof number where the attacker moves, else the least disproof number; the
        first of equals."""
        node = self.nodes[i]
        assert node.kids is not None and node.moves is not None and node.flips is not None
        best: tuple[int, str, bool] | None = None
        key = INF + 1
        for k, m, f in zip(node.kids, node.moves, node.flips, strict=True):
            kid = self.nodes[k]
            if kid.pn == 0 or kid.dn == 0:
                continue
            value = kid.pn if node.attacks else kid.dn
            if value < key:
                best, key = (k, m, f), value
        return best

    def root_moves(self) -> list[dict[str, Any]]:
        """The root's moves as it was given (mirrored back when its node holds the mirror
        image) with the numbers of the positions they reach."""
        root = self.nodes[ROOT]
        if root.kids is None or root.moves is None:
            return []
        out = []
        for k, m in zip(root.kids, root.moves, strict=True):
            kid = self.nodes[k]
            out.append({"move": mirror_move(m) if self.root_flip else m,
                        "proof_number": kid.pn, "disproof_number": kid.dn,
                        "outcome": "proved" if kid.pn == 0 else
                        "disproved" if kid.dn == 0 else "open"})
        return out

    def open_leaves(self, count: int = 10) -> list[dict[str, Any]]:
        """The searched open leaves under the root with the most work, most first, with
        their numbers: where the search is stuck. A position is as the graph holds it (of
        a position and its mirror image, the one whose text sorts first)."""
        nodes = [self.nodes[i] for i in self._order()]
        leaves = [n for n in nodes if n.kids is None and n.searched and n.pn and n.dn]
        leaves.sort(key=lambda n: -n.work)
        return [{"position": n.position, "proof_number": n.pn, "disproof_number": n.dn,
                 "nodes": n.work} for n in leaves[:count]]

    def certificate(self, check: bool = True) -> dict[str, str] | None:
        """The root's certificate once proved: the leaves' certificates (earlier ones take
        precedence) and the graph's own attacker moves where no leaf certificate has the
        position. It is re-checked by the reference rules before it is returned (a
        CertificateError there would be a bug, never a claim)."""
        if self.outcome() != "proved":
            return None
        parts: list[tuple[int, bool]] = []
        moves: dict[str, str] = {}
        seen: set[tuple[int, bool]] = set()
        todo = [(ROOT, self.root_flip)]
        while todo:
            i, flip = todo.pop()
            if (i, flip) in seen:
                continue
            seen.add((i, flip))
            node = self.nodes[i]
            if node.cert >= 0:
                parts.append((node.cert, flip))
            elif node.kids is None:
                continue  # an ended game
            elif node.attacks:
                assert node.moves is not None and node.flips is not None
                move = node.moves[node.choice]
                if flip:
                    moves[mirror_position(node.position)] = mirror_move(move)
                else:
                    moves[node.position] = move
                todo.append((node.kids[node.choice], flip != node.flips[node.choice]))
            else:
                assert node.flips is not None
                todo.extend((k, flip != f) for k, f in zip(node.kids, node.flips, strict=True))
        cert: dict[str, str] = {}
        for c, flip in sorted(parts):
            for p, m in self.certs[c].items():
                if flip:
                    p, m = mirror_position(p), mirror_move(m)
                cert.setdefault(p, m)
        for p, m in moves.items():
            cert.setdefault(p, m)
        if check:  # a caller that checks it itself (fleece.api.ulvtafl.prove) skips this
            check_certificate(self.root_state, SIDE[self.attacker], cert)
        return cert

    # ---- files ------------------------------------------------------------------------

    def meta(self) -> dict[str, Any]:
        """What the tree file records about the tree: a saved one resumes only with the same
        format, engine version and root; it keeps its attacker, safe leaves and profile, and
        a safe front once on; its leaves' focus and epsilon may change (load)."""
        return {"format": FORMAT, "version": VERSION, "engine": e.ENGINE_VERSION,
                "root": position_text(self.root_state), "attacker": SIDE[self.attacker],
                "safe_leaves": self.safe_leaves, "safe_front": self.safe_front,
                "profile": self.profile, "focus_leaves": self.focus_leaves,
                "seeds": list(self.seeds), "epsilon": self.epsilon}

    def save(self, folder: str | Path, overwrite: bool = False) -> Path:
        """Write the tree and its leaf certificates to `folder`/tree.json.gz atomically;
        refuses to replace a saved tree unless `overwrite`."""
        target = Path(folder)
        if target.exists() and not target.is_dir():
            raise CheckpointError(f"{target}: not a folder")
        path = target / "tree.json.gz"
        if path.exists() and not overwrite:
            raise CheckpointError(f"{path}: a saved tree is already there (resume it, or "
                                  "allow overwriting)")
        rows = [n.to_json() for n in self.nodes]
        for i, (pn, dn) in self.busy.items():  # a leaf being searched keeps its numbers
            rows[i][2:4] = [pn, dn]
        data = {**self.meta(), "leaf_nodes": self.leaf_nodes, "leaf_max": self.leaf_max,
                "work": self.work, "seconds": self.seconds, "leaves": self.leaves,
                "seq": self.seq, "repetitions": self.repetitions, "entered": self.entered,
                "root_flip": self.root_flip, "trace": self.trace[-2000:],
                "history": self.history[-HISTORY_POINTS:],
                "nodes": rows, "certificates": self.certs}
        return write_json(path, data, overwrite=True)

    @classmethod
    def load(cls, folder: str | Path, *, workers: int = 1, leaf_nodes: int | None = None,
             leaf_max: int | None = None, memory: int | str | None = None,
             state: UlvState | None = None, safe_front: bool = False,
             focus_leaves: int | None = None,
             seeds: tuple[str, ...] | None = None,
             epsilon: float | None = None) -> ProofTree:
        """A tree resumed from its folder (CheckpointError in one line when missing,
        corrupt, of another engine version or, when `state` is given, of another root).
        `safe_front` turns the safe front on from now on (a tree once pruned stays so: its
        disproofs are only ever "failed"); `focus_leaves` (None: as saved) sets how its
        leaves are searched from now on (a leaf's proof holds whatever search found it);
        `seeds` (None: as saved) the certificate files its leaf searches start with, and
        `epsilon` (None: as saved) their 1+epsilon."""
        path = Path(folder) / "tree.json.gz"
        if not path.is_file():
            raise CheckpointError(f"{path}: no saved tree there")
        try:
            data = json.loads(gzip.decompress(path.read_bytes()).decode("utf-8"))
            if data.get("format") != FORMAT or data.get("version") != VERSION:
                raise CheckpointError(f"{path}: not a saved proof tree of this version")
            if data.get("engine") != e.ENGINE_VERSION:
                raise CheckpointError(f"{path}: written by engine version "
                                      f"{data.get('engine')}, this is {e.ENGINE_VERSION}")
            root = parse_position(data["root"])
            nodes = [Node.from_json(r) for r in data["nodes"]]
            certs = [dict(c) for c in data["certificates"]]
        except CheckpointError:
            raise
        except (OSError, EOFError, ValueError, KeyError, TypeError, FleeceError) as exc:
            raise CheckpointError(f"{path}: unreadable or corrupt saved tree "
                                  f"({type(exc).__name__})") from None
        if state is not None and position_text(bare(state)) != data["root"]:
            raise CheckpointError(f"{path}: a tree of {data['root']!r}, not of this "
                                  "position or rule set")
        tree = cls(root, SIDE.index(data["attacker"]), workers=workers,
                   leaf_nodes=leaf_nodes or int(data["leaf_nodes"]),
                   leaf_max=leaf_max or int(data["leaf_max"]), memory=memory,
                   safe_leaves=bool(data["safe_leaves"]),
                   safe_front=safe_front or bool(data.get("safe_front", False)),
                   profile=str(data.get("profile", DEFAULT_PROFILE)),
                   focus_leaves=int(data.get("focus_leaves", 0)) if focus_leaves is None
                   else focus_leaves,
                   seeds=tuple(str(p) for p in data.get("seeds", ())) if seeds is None
                   else seeds,
                   epsilon=float(data.get("epsilon", DEFAULT_EPSILON)) if epsilon is None
                   else epsilon)
        tree.nodes = nodes
        tree.index = {n.position: i for i, n in enumerate(nodes) if i != REPEAT}
        tree.certs = certs
        tree.work = int(data["work"])
        tree.seconds = float(data["seconds"])
        tree.leaves = int(data["leaves"])
        tree.seq = int(data["seq"])
        tree.repetitions = int(data["repetitions"])
        tree.entered = [(int(p), int(j), bool(f)) for p, j, f in data.get("entered", [])]
        tree.trace = list(data["trace"])
        tree.history = list(data.get("history", []))
        tree.saved_seeds = tuple(str(p) for p in data.get("seeds", ()))
        tree.root_flip = bool(data["root_flip"])
        tree._refresh()
        return tree

    def _refresh(self) -> None:
        """Recompute every expanded node from its kids, kids first (a saved tree's inner
        numbers may include leaves that were being searched)."""
        for i in self._order():
            node = self.nodes[i]
            if node.kids is not None:
                node.pn, node.dn = self._values(node)

    def _order(self) -> list[int]:
        """The nodes under the root, every kid before its parents."""
        order: list[int] = []
        seen = {REPEAT}
        todo: list[tuple[int, bool]] = [(ROOT, False)]
        while todo:
            i, kids_done = todo.pop()
            if kids_done:
                order.append(i)
                continue
            if i in seen:
                continue
            seen.add(i)
            todo.append((i, True))
            todo.extend((k, False) for k in self.nodes[i].kids or ())
        return order
