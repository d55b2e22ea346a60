// fleece serve: the pages' small scripts (no framework, no network but this server).
// Every page works without them; they add the detail panel (Mutton), live updates and the
// line builder (Woof!!) and click-to-move (Ulvtafl). Text is set with textContent only.
"use strict";
(function () {
  function onReady(fn) {
    if (document.readyState !== "loading") { fn(); } else { document.addEventListener("DOMContentLoaded", fn); }
  }

  // ---- Mutton: hover or tap an animal to see its exact probability and why ----
  function initMutton() {
    var detail = document.getElementById("detail");
    if (!detail) { return; }
    var items = Array.prototype.slice.call(document.querySelectorAll("[data-letter][data-exact]"));
    function show(el) {
      var letter = el.getAttribute("data-letter");
      items.forEach(function (x) { x.classList.toggle("selected", x.getAttribute("data-letter") === letter); });
      detail.textContent = "";
      var big = document.createElement("p");
      big.className = "big";
      big.textContent = letter + ": P(wolf) = " + el.getAttribute("data-exact");
      var why = document.createElement("p");
      why.textContent = el.getAttribute("data-hover");
      detail.appendChild(big);
      detail.appendChild(why);
    }
    items.forEach(function (el) {
      el.addEventListener("click", function () { show(el); });
      el.addEventListener("mouseenter", function () { show(el); });
      el.addEventListener("focus", function () { show(el); });
      el.addEventListener("keydown", function (e) {
        if (e.key === "Enter" || e.key === " ") { show(el); e.preventDefault(); }
      });
    });
  }

  // ---- Woof!!: the result follows the evidence as it is typed or built ----
  function initWoof() {
    var form = document.getElementById("woof-form");
    if (!form) { return; }
    var text = form.querySelector("textarea[name=evidence]");
    var out = document.getElementById("woof-result");
    var status = document.getElementById("woof-status");
    var timer = null;
    var seq = 0;
    function update() {
      var mine = ++seq;
      if (!text.value.trim()) { return; }
      status.textContent = "updating...";
      var body = new URLSearchParams(new FormData(form)).toString();
      fetch("/woof/result", { method: "POST", body: body,
        headers: { "content-type": "application/x-www-form-urlencoded" } })
        .then(function (r) { return r.text().then(function (t) { return { ok: r.ok, status: r.status, text: t }; }); })
        .then(function (res) {
          if (mine !== seq) { return; }
          out.innerHTML = res.text;  // server-rendered, every value escaped
          status.textContent = res.ok ? "up to date" : "see the error below";
        })
        .catch(function () { if (mine === seq) { status.textContent = "the server did not answer"; } });
    }
    function later() { clearTimeout(timer); timer = setTimeout(update, 300); }
    form.addEventListener("input", later);
    form.addEventListener("change", later);
    Array.prototype.forEach.call(document.querySelectorAll("[data-line]"), function (row) {
      var button = row.querySelector("button");
      button.addEventListener("click", function () {
        var line = row.getAttribute("data-line");
        var missing = false;
        Array.prototype.forEach.call(row.querySelectorAll("[data-k]"), function (input) {
          var v = input.value.trim();
          if (!v) { missing = true; }
          line = line.replace("{" + input.getAttribute("data-k") + "}", v);
        });
        if (missing) { status.textContent = "fill every box of that line first"; return; }
        var key = line.split(" ")[0];
        var lines = text.value.split("\n").filter(function (l) { return l.trim() !== ""; });
        if (row.hasAttribute("data-single")) {
          lines = lines.filter(function (l) { return l.trim().split(/\s+/)[0] !== key; });
          var at = 0;
          while (at < lines.length && ["seats", "deck", "me"].indexOf(lines[at].trim().split(/\s+/)[0]) >= 0) { at++; }
          lines.splice(key === "seats" ? 0 : at, 0, line);
        } else {
          lines.push(line);
        }
        text.value = lines.join("\n") + "\n";
        update();
      });
    });
  }

  // ---- Ulvtafl (a game or a puzzle): tap a piece, then each point it lands on ----
  function initUlvtafl() {
    var svg = document.getElementById("ulv-board");
    var form = document.getElementById("move-form");
    if (!svg || !form) { return; }
    var moves = JSON.parse(svg.getAttribute("data-moves") || "[]");
    var input = form.querySelector("input[name=move]");
    var hint = document.getElementById("ulv-hint");
    var path = [];
    function candidates() {
      return moves.filter(function (m) { return path.every(function (p, i) { return m.path[i] === p; }); });
    }
    function nextPoints() {
      if (!path.length) { return []; }
      return candidates().filter(function (m) { return m.path.length > path.length; })
        .map(function (m) { return m.path[path.length]; });
    }
    function starts(n) { return moves.some(function (m) { return m.path[0] === n; }); }
    function mark() {
      var next = nextPoints();
      Array.prototype.forEach.call(svg.querySelectorAll("[data-point]"), function (g) {
        var n = g.getAttribute("data-point");
        g.classList.toggle("picked", path.indexOf(n) >= 0);
        g.classList.toggle("target", next.indexOf(n) >= 0);
      });
      if (hint) {
        hint.textContent = path.length ? "move: " + path.join(" > ") + " (tap where it goes)" :
          "tap a piece that can move";
      }
    }
    svg.addEventListener("click", function (e) {
      var g = e.target.closest ? e.target.closest("[data-point]") : null;
      if (!g) { return; }
      var n = g.getAttribute("data-point");
      if (path.length && nextPoints().indexOf(n) >= 0) { path.push(n); }
      else if (starts(n)) { path = [n]; }
      else { path = []; }
      var now = candidates();
      var exact = now.filter(function (m) { return m.path.length === path.length; });
      var longer = now.filter(function (m) { return m.path.length > path.length; });
      if (path.length > 1 && exact.length === 1 && longer.length === 0) {
        input.value = exact[0].text;
        if (hint) { hint.textContent = "playing " + exact[0].text + "..."; }
        form.submit();
        return;
      }
      mark();
    });
    mark();
  }


  // ---- Mutton against a robot: tap animals and cells to write the move ----
  function initMuttonPlay() {
    var svg = document.getElementById("play-board");
    var form = document.getElementById("move-form");
    if (!svg || !form) { return; }
    var c = JSON.parse(svg.getAttribute("data-choices") || "null");
    if (!c) { return; }
    var input = form.querySelector("input[name=move]");
    var hint = document.getElementById("play-hint");
    var picks = [];
    var runs = [];
    function target(letter) {
      return c.targets.filter(function (t) { return t.animal === letter; })[0] || null;
    }
    function runnerTarget() {
      if (picks.length !== 1) { return null; }
      var t = target(picks[0]);
      return t && t.runners.length ? t : null;
    }
    function text() {
      if (!picks.length) { return ""; }
      if (c.phase === "choose") { return "wolves=" + picks.slice().sort().join(""); }
      var t = runnerTarget();
      if (t) {
        return picks[0] + ":" + runs.map(function (r) { return r.animal + "-" + r.cell; }).join(",");
      }
      return picks.join(",");
    }
    function usedCells() { return runs.map(function (r) { return r.cell; }); }
    function mark() {
      var t = runnerTarget();
      var waiting = t && runs.length < t.runners.length;
      var used = usedCells();
      Array.prototype.forEach.call(svg.querySelectorAll("[data-cell]"), function (g) {
        var cell = g.getAttribute("data-cell");
        var letter = g.getAttribute("data-letter");
        g.classList.toggle("picked", (letter && picks.indexOf(letter) >= 0) || used.indexOf(cell) >= 0);
        g.classList.toggle("target", !!waiting && t.free.indexOf(cell) >= 0 && used.indexOf(cell) < 0);
      });
      input.value = text();
      if (hint) {
        if (waiting) {
          hint.textContent = "Tap a free cell for " + t.runners[runs.length] + " to run to (" +
            (t.runners.length - runs.length) + " to go).";
        } else if (picks.length) {
          hint.textContent = "Your move: " + input.value + " (press Play).";
        }
      }
    }
    svg.addEventListener("click", function (e) {
      var g = e.target.closest ? e.target.closest("[data-cell]") : null;
      if (!g) { return; }
      var letter = g.getAttribute("data-letter");
      var cell = g.getAttribute("data-cell");
      var t = runnerTarget();
      if (!letter) {
        if (t && runs.length < t.runners.length && t.free.indexOf(cell) >= 0 && usedCells().indexOf(cell) < 0) {
          runs.push({ animal: t.runners[runs.length], cell: cell });
        }
        mark();
        return;
      }
      var at = picks.indexOf(letter);
      if (c.phase === "choose") {
        if (at >= 0) { picks.splice(at, 1); } else if (picks.length < c.wolves) { picks.push(letter); }
      } else if (c.phase === "wolf") {
        picks = (at >= 0) ? [] : (c.escapes.indexOf(letter) >= 0 || target(letter)) ? [letter] : [];
        runs = [];
      } else if (target(letter)) {
        if (at >= 0) { picks.splice(at, 1); }
        else if (c.berserk && picks.length && !runnerTarget() && !target(letter).runners.length) { picks.push(letter); }
        else { picks = [letter]; }
        runs = [];
      }
      mark();
    });
  }

  onReady(function () {
    initMutton();
    initMuttonPlay();
    initWoof();
    initUlvtafl();
  });
}());
