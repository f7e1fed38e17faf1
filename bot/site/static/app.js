/* Legatus campaign page: the map's turn picker (each turn's map loaded when picked) and the verification's display.
 * The checks themselves are verify.js's; this file only shows them. */
(function () {
  "use strict";

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function setupMap(site) {
    var slider = document.getElementById("turn-slider"), select = document.getElementById("turn-select");
    var img = document.getElementById("map-img"), caption = document.getElementById("map-caption");
    if (!slider || !select || !img || !site.turns.length) return;
    function show(index) {
      var turn = site.turns[index];
      if (!turn) return;
      slider.value = String(index); select.value = String(index);
      slider.setAttribute("aria-valuetext", turn.label);
      if (turn.map) { img.src = turn.map; img.alt = turn.alt; }
      caption.textContent = turn.label;
    }
    slider.addEventListener("input", function () { show(Number(slider.value)); });
    select.addEventListener("change", function () { show(Number(select.value)); });
  }

  var SYMBOL = { pass: "✓", fail: "✗", info: "ℹ", skip: "–", pending: "…" };
  var WORD = { pass: "passed", fail: "FAILED", info: "for the record", skip: "not checked here", pending: "pending" };

  function showChecks(result) {
    var list = document.getElementById("verify-checks"), status = document.getElementById("verify-status");
    list.textContent = "";
    var failed = 0;
    result.checks.forEach(function (c) {
      if (c.state === "fail") failed++;
      var item = el("li", "check " + c.state);
      item.id = "check-" + c.id;
      item.setAttribute("data-state", c.state);
      var head = el("p", "check-head");
      head.appendChild(el("span", "mark", SYMBOL[c.state]));
      head.appendChild(el("strong", "", c.title));
      head.appendChild(el("span", "verdict", " — " + WORD[c.state] + (c.summary ? ": " + c.summary : "")));
      item.appendChild(head);
      if (c.problems.length) {
        var problems = el("ul", "problems");
        c.problems.slice(0, 50).forEach(function (p) {
          var li = el("li", "problem");
          li.appendChild(el("strong", "where", p.where + ": "));
          li.appendChild(document.createTextNode(p.detail));
          problems.appendChild(li);
        });
        if (c.problems.length > 50) problems.appendChild(el("li", "", "… and " + (c.problems.length - 50) + " more"));
        item.appendChild(problems);
      }
      if (c.notes.length) {
        var notes = el("ul", "notes");
        c.notes.slice(0, 100).forEach(function (n) { notes.appendChild(el("li", "", n)); });
        item.appendChild(notes);
      }
      list.appendChild(item);
    });
    status.className = "status " + (failed ? "fail" : "pass");
    status.setAttribute("data-state", failed ? "fail" : "pass");
    status.textContent = failed
      ? "✗ " + failed + " check" + (failed > 1 ? "s" : "") + " failed: see below where."
      : "✓ Every check passed in this browser.";
    document.querySelectorAll("td.rollcheck[data-roll]").forEach(function (cell) {
      var r = result.perRoll[cell.getAttribute("data-roll")];
      var state = r ? r.state : "skip";
      cell.textContent = SYMBOL[state] + " ";
      cell.appendChild(el("span", "sr", WORD[state]));
      cell.title = r ? r.detail : "no value to check";
      cell.setAttribute("data-state", state);
    });
    window.legatusResult = result;
    document.body.setAttribute("data-verified", failed ? "fail" : "pass");
  }

  function setupAnchor(result) {
    var form = document.getElementById("anchor-form"), input = document.getElementById("anchor-input");
    var output = document.getElementById("anchor-result");
    if (!form) return;
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var text = input.value.trim(), m = /^(\d+):([0-9a-fA-F]{64})$/.exec(text);
      if (!m) { output.textContent = "✗ '" + text.slice(0, 80) + "' is not SEQ:HASH (a number, a colon, 64 hex digits)"; return; }
      var found = result.events.filter(function (e) { return e.seq === Number(m[1]); })[0];
      if (!found) output.textContent = "✗ the log ends before event #" + m[1] + ": it was cut after that head was posted";
      else if (found.ev.hash !== m[2].toLowerCase()) output.textContent = "✗ event #" + m[1] + " has hash " + String(found.ev.hash).slice(0, 16) + "…: the log was rewritten after that head was posted";
      else output.textContent = "✓ the log holds event #" + m[1] + " with that hash";
    });
  }

  function start() {
    var site = window.LEGATUS_SITE, log = window.LEGATUS_LOG;
    if (!site) return;
    setupMap(site);
    var status = document.getElementById("verify-status");
    if (typeof log !== "string" || !window.noble || !window.legatusVerify) {
      status.textContent = "✗ The page's checking scripts did not load; run the command below instead.";
      status.className = "status fail";
      return;
    }
    status.textContent = "Checking the log in this browser…";
    setTimeout(function () {
      window.legatusVerify(log, site, function (result) { showChecks(result); setupAnchor(result); },
        function (text) { status.textContent = text; });
    }, 0);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
}());
